"""Running a converted model: onnxruntime sessions, log-mel features, the KV cache between decoder steps."""

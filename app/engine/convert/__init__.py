"""Model conversion: read standard Whisper weights and build Earshot's ONNX graphs."""

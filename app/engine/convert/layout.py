"""What a converted model folder holds, importable without onnx (the run-time path never
builds graphs, so it should not pay for importing the graph tools)."""

ENCODER_FILE = "encoder.onnx"
DECODER_FILE = "decoder.onnx"
TOKENIZER_FILE = "tokenizer.json"
CONVERTER_VERSION = 9
"""Bumped whenever the graphs a given source and precision produce change; part of the cache key,
so an upgrade never reuses graphs built by older code."""

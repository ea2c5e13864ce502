"""What a converted model folder holds, importable without onnx (the run-time path never
builds graphs, so it should not pay for importing the graph tools)."""

ENCODER_FILE = "encoder.onnx"
DECODER_FILE = "decoder.onnx"
TOKENIZER_FILE = "tokenizer.json"
CONVERTER_VERSION = 10
"""Bumped whenever the graphs a given source and precision produce change; part of the cache key,
so an upgrade never reuses graphs built by older code."""


def cross_weights_name(layer: int) -> str:
    """The decoder graph's value holding layer `layer`'s cross-attention weights
    [audio_batch, n_head, queries, 1500] (softmax over the audio frames; see decoder_graph.py)."""
    return f"cross_weights_{layer}"

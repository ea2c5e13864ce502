"""Turn `WhisperWeights` into the files of one cache entry: encoder.onnx, decoder.onnx,
tokenizer.json. Quantized precisions start from the fp32 graphs (see `quantize.py`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import onnx

from app.engine.convert.decoder_graph import build_decoder
from app.engine.convert.encoder_graph import build_encoder
from app.engine.convert.layout import DECODER_FILE, ENCODER_FILE, TOKENIZER_FILE
from app.engine.convert.model_facts import METADATA_KEY, ModelFacts
from app.engine.convert.weights import WhisperWeights
from app.engine.types import Precision

_PROTOBUF_LIMIT = 1_800_000_000  # stay clear of protobuf's 2 GiB limit


def save_model(model: onnx.ModelProto, path: Path) -> None:
    """Save, with weights in a side file when the graph is too large for one protobuf."""
    if model.ByteSize() > _PROTOBUF_LIMIT:
        onnx.save(model, str(path), save_as_external_data=True, location=path.name + ".data")
    else:
        onnx.save(model, str(path))


def _with_facts(model: onnx.ModelProto, facts: ModelFacts) -> onnx.ModelProto:
    entry = model.metadata_props.add()
    entry.key, entry.value = METADATA_KEY, facts.to_json()
    return model


def convert(weights: WhisperWeights, precision: Precision, out_dir: Path, source: str) -> None:
    """Write a complete model into `out_dir` (which must exist and be empty)."""
    from app.engine.convert import quantize  # imported lazily: it pulls in onnxruntime.quantization

    facts = ModelFacts.from_weights(weights, precision.value, source)
    dtype: type[np.floating[Any]] = np.float16 if precision is Precision.FP16 else np.float32
    quantized = precision.quantized
    encoder = build_encoder(weights, dtype, stem_as_matmuls=quantized)
    decoder = build_decoder(weights, dtype, separate_projection=quantized)
    if quantized:
        encoder, decoder = quantize.quantize_pair(encoder, decoder, precision)
    save_model(_with_facts(encoder, facts), out_dir / ENCODER_FILE)
    save_model(_with_facts(decoder, facts), out_dir / DECODER_FILE)
    (out_dir / TOKENIZER_FILE).write_bytes(weights.tokenizer_json)

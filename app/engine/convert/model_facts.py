"""Model facts stored in the ONNX graphs' metadata, so the runtime needs no source files."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

from app.engine.convert.weights import WhisperDims, WhisperWeights

METADATA_KEY = "earshot.model"
FORMAT_VERSION = 1


@dataclass(frozen=True)
class ModelFacts:
    """Everything the decoding loop needs to know about a converted model."""

    dims: WhisperDims
    precision: str
    suppress_ids: list[int] = field(default_factory=list)
    suppress_ids_begin: list[int] = field(default_factory=list)
    alignment_heads: list[tuple[int, int]] = field(default_factory=list)
    """(decoder layer, head) pairs whose cross-attention follows the audio (word timestamps)."""
    alignment_heads_source: str = ""
    """Where `alignment_heads` came from: "model" (its config) or a note saying they are a default."""
    source: str = ""
    format_version: int = FORMAT_VERSION

    @property
    def multilingual(self) -> bool:
        return self.dims.n_vocab >= 51865

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> ModelFacts:
        raw = json.loads(text)
        raw["dims"] = WhisperDims(**raw["dims"])
        raw["alignment_heads"] = [tuple(pair) for pair in raw.get("alignment_heads", [])]
        return cls(**raw)

    @classmethod
    def from_weights(cls, weights: WhisperWeights, precision: str, source: str) -> ModelFacts:
        heads, heads_source = list(weights.alignment_heads), "model"
        if not heads:
            heads, heads_source = default_alignment_heads(weights.dims), DEFAULT_HEADS_NOTE
        return cls(
            dims=weights.dims,
            precision=precision,
            suppress_ids=list(weights.suppress_ids),
            suppress_ids_begin=list(weights.suppress_ids_begin),
            alignment_heads=heads,
            alignment_heads_source=heads_source,
            source=source,
        )


DEFAULT_HEADS_NOTE = (
    "default: every head of the decoder's last half of layers (the model names no "
    "alignment heads), as openai/whisper does; word times are less precise"
)


def default_alignment_heads(dims: WhisperDims) -> list[tuple[int, int]]:
    """openai/whisper's fallback when a model has no alignment heads: all heads of the layers
    from n_text_layer // 2 on."""
    return [
        (layer, head) for layer in range(dims.n_text_layer // 2, dims.n_text_layer) for head in range(dims.n_text_head)
    ]

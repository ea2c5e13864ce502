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
        return cls(
            dims=weights.dims,
            precision=precision,
            suppress_ids=list(weights.suppress_ids),
            suppress_ids_begin=list(weights.suppress_ids_begin),
            alignment_heads=list(weights.alignment_heads),
            source=source,
        )

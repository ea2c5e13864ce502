"""The in-memory form every weight reader produces: Whisper's dimensions, facts and tensors.

Tensors use CTranslate2's names and layout (fused self-attention QKV, fused cross-attention KV,
Linear weights as [out_features, in_features]) because the graph builders want the fused form.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray


class ModelFormatError(Exception):
    """The folder or file is not a readable Whisper model; the message says why."""


@dataclass(frozen=True)
class WhisperDims:
    """Architecture sizes. `n_audio_ctx` is 1500 positions for a 30 s window."""

    n_mels: int
    n_vocab: int
    n_audio_ctx: int
    n_audio_state: int
    n_audio_head: int
    n_audio_layer: int
    n_text_ctx: int
    n_text_state: int
    n_text_head: int
    n_text_layer: int


@dataclass
class WhisperWeights:
    """Everything needed to build the graphs and run the model.

    `tensors` maps CTranslate2-style names (`encoder/layer_0/self_attention/linear_0/weight`)
    to arrays in their stored dtype (float16 or float32).
    """

    dims: WhisperDims
    tensors: dict[str, NDArray[np.floating]]
    suppress_ids: list[int] = field(default_factory=list)
    suppress_ids_begin: list[int] = field(default_factory=list)
    alignment_heads: list[tuple[int, int]] = field(default_factory=list)
    lang_ids: list[int] = field(default_factory=list)
    tokenizer_json: bytes = b""

    def get(self, name: str) -> NDArray[np.floating]:
        try:
            return self.tensors[name]
        except KeyError:
            raise ModelFormatError(f"the model has no tensor {name!r}") from None

    @property
    def is_multilingual(self) -> bool:
        return self.dims.n_vocab >= 51865


def infer_dims(tensors: dict[str, NDArray[np.floating]], n_audio_head: int, n_text_head: int) -> WhisperDims:
    """Derive sizes from tensor shapes (CTranslate2 naming)."""

    def count_layers(prefix: str) -> int:
        n = 0
        while f"{prefix}/layer_{n}/ffn/linear_0/weight" in tensors:
            n += 1
        return n

    try:
        conv1 = tensors["encoder/conv1/weight"]  # [state, n_mels, 3]
        emb = tensors["decoder/embeddings/weight"]  # [vocab, state]
        enc_pos = tensors["encoder/position_encodings/encodings"]  # [1500, state]
        dec_pos = tensors["decoder/position_encodings/encodings"]  # [448, state]
    except KeyError as exc:
        raise ModelFormatError(f"not a Whisper model: tensor {exc.args[0]!r} is missing") from None
    return WhisperDims(
        n_mels=int(conv1.shape[1]),
        n_vocab=int(emb.shape[0]),
        n_audio_ctx=int(enc_pos.shape[0]),
        n_audio_state=int(conv1.shape[0]),
        n_audio_head=n_audio_head,
        n_audio_layer=count_layers("encoder"),
        n_text_ctx=int(dec_pos.shape[0]),
        n_text_state=int(emb.shape[1]),
        n_text_head=n_text_head,
        n_text_layer=count_layers("decoder"),
    )

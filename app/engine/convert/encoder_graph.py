"""Build `encoder.onnx`: log-mel -> cross-attention K and V for every decoder layer.

Inputs:  `mel` [batch, n_mels, 3000] float32.
Outputs, one pair per decoder layer in the model dtype, so the decoder never re-projects the audio,
slices or transposes it:
  `cross_k_{i}` [batch, n_text_head, head_dim, 1500]: K already transposed and already multiplied
                by the attention scale head_dim ** -0.5, ready to be the right side of Q @ K^T;
  `cross_v_{i}` [batch, n_text_head, 1500, head_dim].
"""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
from numpy.typing import NDArray
from onnx import TensorProto

from app.engine.convert.graph_builder import MS_DOMAIN, GraphBuilder
from app.engine.convert.weights import WhisperWeights


def _self_attention(g: GraphBuilder, x: str, t: dict[str, NDArray[Any]], prefix: str, heads: int) -> str:
    """Pre-norm self-attention block with fused QKV projection; returns the residual sum."""
    h = g.layer_norm(x, t[f"{prefix}/layer_norm/gamma"], t[f"{prefix}/layer_norm/beta"], prefix)
    qkv = g.linear(h, t[f"{prefix}/linear_0/weight"], t[f"{prefix}/linear_0/bias"], f"{prefix}.qkv")
    q, k, v = _split3(g, qkv, t, prefix)
    attn = g.op1("MultiHeadAttention", [q, k, v], domain=MS_DOMAIN, num_heads=heads)
    out = g.linear(attn, t[f"{prefix}/linear_1/weight"], t[f"{prefix}/linear_1/bias"], f"{prefix}.out")
    return g.op1("Add", [x, out])


def _split3(g: GraphBuilder, qkv: str, t: dict[str, NDArray[Any]], prefix: str) -> list[str]:
    d = t[f"{prefix}/linear_1/weight"].shape[0]
    sizes = g.const(g.fresh("split_sizes"), np.array([d, d, d], dtype=np.int64))
    return g.op("Split", [qkv, sizes], 3, axis=-1)


def _to_heads(g: GraphBuilder, x: str, heads: int, head_dim: int, perm: list[int]) -> str:
    """[batch, seq, heads*head_dim] -> [batch, seq, heads, head_dim], then transposed by `perm`."""
    shape = g.const(g.fresh("heads_shape"), np.array([0, -1, heads, head_dim], dtype=np.int64))
    return g.op1("Transpose", [g.op1("Reshape", [x, shape])], perm=perm)


def _conv_stem(g: GraphBuilder, mel: str, t: dict[str, NDArray[Any]]) -> str:
    """Two Conv1d + GELU: mel [batch, n_mels, 3000] -> [batch, 1500, state]."""
    x = mel if g.dtype == np.float32 else g.op1("Cast", [mel], to=g.onnx_dtype)
    for i, stride in ((1, 1), (2, 2)):
        conv = g.op1(
            "Conv",
            [
                x,
                g.weight(f"conv{i}.weight", t[f"encoder/conv{i}/weight"]),
                g.weight(f"conv{i}.bias", t[f"encoder/conv{i}/bias"]),
            ],
            pads=[1, 1],
            strides=[stride],
        )
        x = g.op1("Gelu", [conv], domain=MS_DOMAIN)
    return g.op1("Transpose", [x], perm=[0, 2, 1])


def _conv_stem_as_matmuls(g: GraphBuilder, mel: str, t: dict[str, NDArray[Any]]) -> str:
    """The same stem as two MatMuls over explicit windows (im2col), time-major throughout, so
    the int8 rewrite (`row_quant.py`) can quantize it like every other MatMul: Conv has no int8
    kernel with per-row activation scales, and an fp32 stem is a sizeable share of an int8 window.

    Window rows: frame t of conv1 reads padded frames t, t+1, t+2 (3 x n_mels values); frame t
    of conv2 (stride 2) reads padded frames 2t, 2t+1, 2t+2, i.e. row t of the padded frames
    paired up ([1501, 2 x state]) plus the first half of row t + 1."""
    x = g.op1("Transpose", [mel], perm=[0, 2, 1])  # [batch, 3000, n_mels]
    pads = g.const("stem.pads", np.array([0, 1, 0, 0, 1, 0], dtype=np.int64))
    padded = g.op1("Pad", [x, pads])  # [batch, 3002, n_mels]
    windows = g.op1("Concat", [_time_slice(g, padded, k, 3000 + k) for k in range(3)], axis=2)
    x = _stem_matmul(g, windows, t, 1)  # [batch, 3000, state]
    padded = g.op1("Pad", [x, pads])  # [batch, 3002, state]
    state = t["encoder/conv2/bias"].shape[0]
    pairs = g.op1("Reshape", [padded, g.const("stem.pairs", np.array([0, 1501, 2 * state], dtype=np.int64))])
    next_frame = g.op1(
        "Slice",
        [
            _time_slice(g, pairs, 1, 1501),
            g.const("stem.zero", np.array([0], np.int64)),
            g.const("stem.state", np.array([state], np.int64)),
            g.const("stem.axis2", np.array([2], np.int64)),
        ],
    )
    windows = g.op1("Concat", [_time_slice(g, pairs, 0, 1500), next_frame], axis=2)  # [batch, 1500, 3 x state]
    return _stem_matmul(g, windows, t, 2)


def _time_slice(g: GraphBuilder, x: str, start: int, end: int) -> str:
    """x[:, start:end] along the time axis (1)."""
    return g.op1(
        "Slice",
        [
            x,
            g.const(g.fresh("start"), np.array([start], np.int64)),
            g.const(g.fresh("end"), np.array([end], np.int64)),
            g.const("stem.axis1", np.array([1], np.int64)),
        ],
    )


def _stem_matmul(g: GraphBuilder, windows: str, t: dict[str, NDArray[Any]], i: int) -> str:
    """windows [batch, frames, 3 x channels] @ conv{i}'s kernel, + bias, GELU."""
    kernel = t[f"encoder/conv{i}/weight"]  # [out, in, 3]: rows of the MatMul weight are (tap, in)
    weight = kernel.transpose(2, 1, 0).reshape(-1, kernel.shape[0])
    y = g.op1("MatMul", [windows, g.weight(f"conv{i}.weight_t", weight)])
    return g.op1("BiasGelu", [y, g.weight(f"conv{i}.bias", t[f"encoder/conv{i}/bias"])], domain=MS_DOMAIN)


def build_encoder(
    weights: WhisperWeights, dtype: type[np.floating[Any]] = np.float32, stem_as_matmuls: bool = False
) -> onnx.ModelProto:
    """`stem_as_matmuls`: the conv stem as MatMuls (for graphs whose MatMuls are quantized)."""
    dims, t = weights.dims, weights.tensors
    g = GraphBuilder("whisper_encoder", dtype)
    mel = g.add_input("mel", TensorProto.FLOAT, ["batch", dims.n_mels, 2 * dims.n_audio_ctx])
    if stem_as_matmuls:
        assert g.dtype == np.float32, "the MatMul stem is built for the int8 rewrite, from fp32"
        x = _conv_stem_as_matmuls(g, mel, t)
    else:
        x = _conv_stem(g, mel, t)  # [batch, 1500, state]
    x = g.op1("Add", [x, g.weight("encoder.positions", t["encoder/position_encodings/encodings"])])
    for layer in range(dims.n_audio_layer):
        prefix = f"encoder/layer_{layer}"
        x = _self_attention(g, x, t, f"{prefix}/self_attention", dims.n_audio_head)
        h = g.layer_norm(x, t[f"{prefix}/ffn/layer_norm/gamma"], t[f"{prefix}/ffn/layer_norm/beta"], f"{prefix}.ffn")
        x = g.op1("Add", [x, g.mlp(h, t, f"{prefix}/ffn")])
    x = g.layer_norm(x, t["encoder/layer_norm/gamma"], t["encoder/layer_norm/beta"], "encoder.ln_post")
    _cross_kv_outputs(g, x, weights)
    return g.build({})


def _cross_kv_outputs(g: GraphBuilder, x: str, weights: WhisperWeights) -> None:
    """Each decoder layer's cross K^T [batch, heads, head_dim, 1500] and V [batch, heads, 1500,
    head_dim]: one MatMul and one Transpose each. (One GEMM for all layers, then Split and
    Transposes, would hold the [1500, 2 x n_layers x state] product and its split copies at once:
    more peak memory at the same speed.)

    The scale is folded into K's weights: head_dim ** -0.5 is a power of two for every Whisper size
    (head_dim 64), so the scaled weights quantize to the same integers with scales / 8."""
    dims, t = weights.dims, weights.tensors
    d, heads = dims.n_text_state, dims.n_text_head
    head_dim = d // heads
    scale = head_dim**-0.5
    shapes: dict[str, list[int | str]] = {
        "k": ["batch", heads, head_dim, dims.n_audio_ctx],
        "v": ["batch", heads, dims.n_audio_ctx, head_dim],
    }
    perms = {"k": [0, 2, 3, 1], "v": [0, 2, 1, 3]}
    for i in range(dims.n_text_layer):
        w = t[f"decoder/layer_{i}/attention/linear_1/weight"]  # [2 * state, state]: K rows, then V rows
        b = t[f"decoder/layer_{i}/attention/linear_1/bias"]
        for j, kind in enumerate(("k", "v")):
            factor = scale if kind == "k" else 1.0
            projected = g.linear(
                x, w[j * d : (j + 1) * d] * factor, b[j * d : (j + 1) * d] * factor, f"cross_{kind}_{i}"
            )
            g.add_output(
                _to_heads(g, projected, heads, head_dim, perms[kind]), f"cross_{kind}_{i}", g.onnx_dtype, shapes[kind]
            )

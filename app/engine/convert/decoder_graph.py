"""Build `decoder.onnx`: one graph for the prompt (n_tokens > 1) and every later step (= 1).

Inputs:
  `tokens`          [batch, n_tokens] int64
  `cache_indices`   [batch] int64: which row of the past cache each row continues (beam
                    search reorders with it; greedy passes 0..batch-1)
  `past_k_{i}`, `past_v_{i}`   [batch_past, n_head, past_len, head_dim] model dtype
                    (past_len 0 on the first call; the position offset is derived from it)
  `cross_k_{i}`      [audio_batch, n_head, head_dim, 1500] model dtype, from the encoder: K
                    transposed and pre-scaled by head_dim ** -0.5
  `cross_v_{i}`      [audio_batch, n_head, 1500, head_dim] model dtype, from the encoder;
                    audio_batch divides batch: rows [j * batch / audio_batch, (j + 1) * ...) attend
                    to audio j (beams and best-of samples share one copy of their window's K/V)
Outputs:
  `logits`          [batch, n_vocab] float32, for the last input position only
  `present_k_{i}`, `present_v_{i}` [batch, n_head, past_len + n_tokens, head_dim] model dtype
Named intermediate values (not outputs, so never fetched or kept):
  `cross_weights_{i}` [audio_batch, n_head, queries, 1500] model dtype: layer i's cross-attention
                    weights (softmax over the audio frames), queries = (batch / audio_batch) * n_tokens
"""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
from numpy.typing import NDArray
from onnx import TensorProto, helper

from app.engine.convert.graph_builder import MS_DOMAIN, GraphBuilder
from app.engine.convert.layout import cross_weights_name
from app.engine.convert.weights import WhisperWeights


def _positions(g: GraphBuilder, tokens: str, past_k0: str) -> str:
    """Range(past_len, past_len + n_tokens) as int64 [n_tokens]."""
    past_len = g.op1("Gather", [g.op1("Shape", [past_k0]), g.const("axis2", np.array(2, dtype=np.int64))])
    n_tokens = g.op1("Gather", [g.op1("Shape", [tokens]), g.const("axis1", np.array(1, dtype=np.int64))])
    end = g.op1("Add", [past_len, n_tokens])
    return g.op1("Range", [past_len, end, g.const("one", np.array(1, dtype=np.int64))])


def _self_attention(
    g: GraphBuilder, x: str, t: dict[str, NDArray[Any]], layer: int, heads: int, cache_indices: str
) -> tuple[str, str, str]:
    prefix = f"decoder/layer_{layer}/self_attention"
    h = g.layer_norm(x, t[f"{prefix}/layer_norm/gamma"], t[f"{prefix}/layer_norm/beta"], prefix)
    qkv = g.linear(h, t[f"{prefix}/linear_0/weight"], t[f"{prefix}/linear_0/bias"], f"{prefix}.qkv")
    d = t[f"{prefix}/linear_1/weight"].shape[0]
    q, k, v = g.op("Split", [qkv, g.const(g.fresh("sizes"), np.array([d, d, d], np.int64))], 3, axis=-1)
    past_k = g.op1("Gather", [f"past_k_{layer}", cache_indices], axis=0)
    past_v = g.op1("Gather", [f"past_v_{layer}", cache_indices], axis=0)
    attn, present_k, present_v = g.op(
        "MultiHeadAttention",
        [q, k, v, "", "", "", past_k, past_v],
        3,
        domain=MS_DOMAIN,
        num_heads=heads,
        unidirectional=1,
    )
    out = g.linear(attn, t[f"{prefix}/linear_1/weight"], t[f"{prefix}/linear_1/bias"], f"{prefix}.out")
    return g.op1("Add", [x, out]), present_k, present_v


def _grouped_query_shape(g: GraphBuilder, heads: int, head_dim: int) -> str:
    """[audio_batch, -1, heads, head_dim]: the queries of all rows that share one audio as one
    sequence, split into heads."""
    audio_batch = g.op1(
        "Slice",
        [
            g.op1("Shape", ["cross_k_0"]),
            g.const("zero_1d", np.array([0], np.int64)),
            g.const("one_1d", np.array([1], np.int64)),
        ],
    )
    rest = g.const("grouped_rest", np.array([-1, heads, head_dim], dtype=np.int64))
    return g.op1("Concat", [audio_batch, rest], axis=0)


def _cross_attention(g: GraphBuilder, x: str, t: dict[str, NDArray[Any]], layer: int, grouped_shape: str) -> str:
    """Cross-attention without a copy of the audio's K/V per row: the queries of the rows that
    share an audio are attended as one longer query sequence (no mask, so rows stay independent);
    beam search at 5 beams reads the 1500-position K/V once per step instead of 5 times.

    Plain MatMul -> Softmax -> MatMul against the encoder's pre-transposed, pre-scaled K, not
    MultiHeadAttention: the fused CPU kernel transposes and packs the 1500-position K and V on
    every call, which makes it the slower of the two for one query per row (greedy)."""
    prefix = f"decoder/layer_{layer}/attention"
    h = g.layer_norm(x, t[f"{prefix}/layer_norm/gamma"], t[f"{prefix}/layer_norm/beta"], prefix)
    q = g.linear(h, t[f"{prefix}/linear_0/weight"], t[f"{prefix}/linear_0/bias"], f"{prefix}.q")
    grouped = g.op1("Reshape", [q, grouped_shape])  # [audio_batch, queries, heads, head_dim]
    q_heads = g.op1("Transpose", [grouped], perm=[0, 2, 1, 3])
    # Named, so the word-timing graph (app/engine/runtime/alignment_graph.py) can return it; this graph does not.
    weights = cross_weights_name(layer)
    g.nodes.append(
        helper.make_node(
            "Softmax", [g.op1("MatMul", [q_heads, f"cross_k_{layer}"])], [weights], name=g.fresh("Softmax"), axis=-1
        )
    )
    attn = g.op1("Transpose", [g.op1("MatMul", [weights, f"cross_v_{layer}"])], perm=[0, 2, 1, 3])
    attn = g.op1("Reshape", [attn, g.op1("Shape", [q])])  # back to [batch, n_tokens, state]
    out = g.linear(attn, t[f"{prefix}/linear_2/weight"], t[f"{prefix}/linear_2/bias"], f"{prefix}.out")
    return g.op1("Add", [x, out])


def _declare_inputs(g: GraphBuilder, weights: WhisperWeights) -> None:
    dims = weights.dims
    head_dim = dims.n_text_state // dims.n_text_head
    g.add_input("tokens", TensorProto.INT64, ["batch", "n_tokens"])
    g.add_input("cache_indices", TensorProto.INT64, ["batch"])
    for i in range(dims.n_text_layer):
        for kind in ("k", "v"):
            g.add_input(f"past_{kind}_{i}", g.onnx_dtype, ["batch_past", dims.n_text_head, "past_len", head_dim])
    for i in range(dims.n_text_layer):
        for kind in ("k", "v"):
            axes = [head_dim, dims.n_audio_ctx] if kind == "k" else [dims.n_audio_ctx, head_dim]
            g.add_input(f"cross_{kind}_{i}", g.onnx_dtype, ["audio_batch", dims.n_text_head, *axes])


def build_decoder(
    weights: WhisperWeights, dtype: type[np.floating[Any]] = np.float32, separate_projection: bool = False
) -> onnx.ModelProto:
    """`separate_projection` gives the vocabulary projection its own [state, vocab] MatMul weight
    (a copy of the embedding) so weight quantizers, which only rewrite MatMul, can shrink the
    largest tensor the decoder reads every step; otherwise the embedding is shared (Gemm transB)."""
    dims, t = weights.dims, weights.tensors
    g = GraphBuilder("whisper_decoder", dtype)
    _declare_inputs(g, weights)
    positions = g.weight("decoder.positions", t["decoder/position_encodings/encodings"])
    if separate_projection and g.dtype == np.float32:
        # Only a few rows are read per step: keep the table in fp16 (half the memory) and widen them.
        table = g.const("decoder.embeddings_fp16", t["decoder/embeddings/weight"].astype(np.float16))
        token_vectors = g.op1("Cast", [g.op1("Gather", [table, "tokens"])], to=TensorProto.FLOAT)
    else:
        embedding = g.weight("decoder.embeddings", t["decoder/embeddings/weight"])  # [vocab, state]
        token_vectors = g.op1("Gather", [embedding, "tokens"])
    if not separate_projection:
        assert "decoder.embeddings" in {i.name for i in g.initializers}
    x = g.op1("Add", [token_vectors, g.op1("Gather", [positions, _positions(g, "tokens", "past_k_0")])])
    head_dim = dims.n_text_state // dims.n_text_head
    present_shape: list[int | str] = ["batch", dims.n_text_head, "total_len", head_dim]
    grouped_shape = _grouped_query_shape(g, dims.n_text_head, head_dim)
    for layer in range(dims.n_text_layer):
        x, present_k, present_v = _self_attention(g, x, t, layer, dims.n_text_head, "cache_indices")
        g.add_output(present_k, f"present_k_{layer}", g.onnx_dtype, present_shape)
        g.add_output(present_v, f"present_v_{layer}", g.onnx_dtype, present_shape)
        x = _cross_attention(g, x, t, layer, grouped_shape)
        prefix = f"decoder/layer_{layer}/ffn"
        h = g.layer_norm(x, t[f"{prefix}/layer_norm/gamma"], t[f"{prefix}/layer_norm/beta"], prefix)
        x = g.op1("Add", [x, g.mlp(h, t, prefix)])
    last = g.op1("Gather", [x, g.const("last", np.array(-1, dtype=np.int64))], axis=1)  # [batch, state]
    last = g.layer_norm(last, t["decoder/layer_norm/gamma"], t["decoder/layer_norm/beta"], "decoder.ln")
    if separate_projection:
        logits = g.op1("MatMul", [last, g.weight("decoder.projection_t", t["decoder/embeddings/weight"].T)])
    else:  # tied weights: the embedding matrix itself, read transposed (no copy)
        logits = g.op1("Gemm", [last, "decoder.embeddings"], transB=1)
    if g.dtype != np.float32:
        logits = g.op1("Cast", [logits], to=TensorProto.FLOAT)
    g.add_output(logits, "logits", TensorProto.FLOAT, ["batch", dims.n_vocab])
    return g.build({})

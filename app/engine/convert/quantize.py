"""Quantized graphs from the fp32 ones (both precisions are mixed per graph).

Encoder (compute-bound: 1500 rows per MatMul): int8 with one activation scale per row
(`row_quant.py`). onnxruntime's `quantize_dynamic` scales a whole activation tensor at once and
gets clearly more words wrong; per-row scales keep fp32's word error rate, most clips
token-identical to fp32 (bench/compare.py measures it).
Decoder (bandwidth-bound: one row per step): MatMulNBits, blocks of 32, accuracy_level 4 (int8
compute): 8-bit for `int8` (near-exact), 4-bit for `int4` (fastest, less accurate).
At 8 bits the token embedding reads the vocabulary projection's blocks (`share_embedding`);
`int8-small` then re-quantizes that one shared table in 4-bit cells (`vocab_table.py`).
`int8-accurate` keeps the fp16 embedding table instead and rescores each step's leading
candidates against it (`rescore_top_logits`): the word choice is made on exact logits.
"""

from __future__ import annotations

import logging

import numpy as np
import onnx
from numpy.typing import NDArray
from onnx import helper, numpy_helper

from app.engine.convert.int8_kernels import signed_weights_exact
from app.engine.convert.row_quant import quantize_rows
from app.engine.convert.vocab_table import VocabularyFormat, requantize_vocabulary
from app.engine.types import Precision

# The second conv of the stem stays fp32 (as a MatMul over explicit windows, see encoder_graph):
# in int8 it turns "two of them work" into "do a network" on the espeak clips, and saves little
# time. The first conv in int8 changes no token on the espeak or the shared English clips.
ENCODER_FLOAT_WEIGHTS = frozenset({"conv2.weight_t"})

SMALL_VOCABULARY = VocabularyFormat(code_bits=4, storage_bits=4, block=32)
"""`int8-small`'s vocabulary table (bench/vocab_formats.py, docs/packaging.md)."""


def _matmul_nbits(model: onnx.ModelProto, bits: int) -> onnx.ModelProto:
    from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer

    logging.getLogger("onnxruntime.quantization.matmul_nbits_quantizer").setLevel(logging.WARNING)
    quantizer = MatMulNBitsQuantizer(model, bits=bits, block_size=32, is_symmetric=True, accuracy_level=4)
    quantizer.process()
    result: onnx.ModelProto = quantizer.model.model
    return result


def share_embedding(decoder: onnx.ModelProto) -> onnx.ModelProto:
    """Gather token vectors from the 8-bit projection blocks instead of an fp16 table.

    Whisper ties the embedding to the vocabulary projection, and MatMulNBits stores that weight
    as [vocab, state / 32, 32] uint8 blocks of embedding rows: `GatherBlockQuantized` reads the
    same initializer, so the 40 MB fp16 table (tiny.en) goes and only per-block scales are added.
    The embedding then carries the projection's 8-bit error (at most half a step of its block).
    """
    graph = decoder.graph
    inits = {t.name: t for t in graph.initializer}
    proj = next(n for n in graph.node if n.op_type == "MatMulNBits" and n.input[1].startswith("decoder.projection_t"))
    gather = next(n for n in graph.node if n.op_type == "Gather" and n.input[0] == "decoder.embeddings_fp16")
    cast = next(n for n in graph.node if n.op_type == "Cast" and n.input[0] == gather.output[0])
    blocks = [int(d) for d in inits[proj.input[1]].dims]  # [vocab, n_blocks, block]
    scales = numpy_helper.to_array(inits[proj.input[2]]).reshape(blocks[0], blocks[1], 1)
    graph.initializer.append(numpy_helper.from_array(scales, "decoder.embedding_scales"))
    graph.initializer.append(numpy_helper.from_array(np.array([0, 0, -1], dtype=np.int64), "decoder.embedding_shape"))
    rows = gather.output[0] + ".blocks"  # [batch, n_tokens, n_blocks, block] float32
    index = list(graph.node).index(gather)
    for node in (cast, gather):
        graph.node.remove(node)
    graph.node.insert(
        index,
        helper.make_node(
            "GatherBlockQuantized",
            [proj.input[1], gather.input[1], "decoder.embedding_scales"],
            [rows],
            domain="com.microsoft",
            gather_axis=0,
            quantize_axis=2,
            block_size=blocks[2],
            bits=8,
        ),
    )
    graph.node.insert(index + 1, helper.make_node("Reshape", [rows, "decoder.embedding_shape"], [cast.output[0]]))
    graph.initializer.remove(inits["decoder.embeddings_fp16"])
    return decoder


RESCORED_CANDIDATES = 16
"""Candidates per step whose logits `int8-accurate` recomputes: beam search reads beam + 1 per row
(at most 6 at beam 5), greedy one. Teacher-forced steps over the espeak clips: the 8-bit logits'
largest error over the vocabulary was 0.39 (tiny.en) and 0.65 (base), the exact gap from the 1st
to the 16th logit at least 4.5 and 2.3, so the true leader is always among the 16."""


def rescore_top_logits(decoder: onnx.ModelProto, k: int = RESCORED_CANDIDATES) -> onnx.ModelProto:
    """Replace the `k` largest 8-bit logits per row by exact ones from the fp16 embedding table.

    The vocabulary projection's 8-bit error moves logits by up to a few tenths, enough to swap
    near-ties (base: "!" for "." on the falsetto clip); the rows of the k leading tokens, widened
    to fp32 and multiplied by the final state ([batch, state] float32), give exactly the fp32
    graph's logits for them. Cost: one TopK over the vocabulary and a [k, state] product per step.
    """
    graph = decoder.graph
    proj = next(n for n in graph.node if n.op_type == "MatMulNBits" and n.input[1].startswith("decoder.projection_t"))
    output = next(n for n in graph.node if n.op_type == "Identity" and n.output[0] == "logits")
    assert output.input[0] == proj.output[0], "the projection must feed the logits output directly"
    last, approx = proj.input[0], proj.output[0]  # [batch, state], [batch, vocab] float32
    graph.initializer.append(numpy_helper.from_array(np.array([k], dtype=np.int64), "rescore.k"))
    graph.initializer.append(numpy_helper.from_array(np.array([-1], dtype=np.int64), "rescore.last_axis"))
    nodes = [
        helper.make_node("TopK", [approx, "rescore.k"], ["rescore.values", "rescore.tokens"], axis=-1),
        helper.make_node("Gather", ["decoder.embeddings_fp16", "rescore.tokens"], ["rescore.rows_fp16"]),
        helper.make_node("Cast", ["rescore.rows_fp16"], ["rescore.rows"], to=onnx.TensorProto.FLOAT),
        helper.make_node("Unsqueeze", [last, "rescore.last_axis"], ["rescore.state"]),  # [batch, state, 1]
        helper.make_node("MatMul", ["rescore.rows", "rescore.state"], ["rescore.exact_col"]),  # [batch, k, 1]
        helper.make_node("Squeeze", ["rescore.exact_col", "rescore.last_axis"], ["rescore.exact"]),
        helper.make_node("ScatterElements", [approx, "rescore.tokens", "rescore.exact"], ["rescore.logits"], axis=1),
    ]
    index = list(graph.node).index(output)
    for offset, node in enumerate(nodes):
        node.name = node.output[0].replace(".", "_")
        graph.node.insert(index + offset, node)
    output.input[0] = "rescore.logits"
    return decoder


def _vocabulary_table(decoder: onnx.ModelProto) -> NDArray[np.float32]:
    """The fp32 decoder's projection weight ([state, vocab]) as the table [vocab, state] float32."""
    weight = next(t for t in decoder.graph.initializer if t.name == "decoder.projection_t")
    return np.ascontiguousarray(numpy_helper.to_array(weight).T, dtype=np.float32)


def quantize_pair(
    encoder: onnx.ModelProto, decoder: onnx.ModelProto, precision: Precision
) -> tuple[onnx.ModelProto, onnx.ModelProto]:
    """(encoder, decoder) fp32 graphs -> their `precision` (INT8, INT8_ACCURATE, INT8_SMALL or INT4)
    versions. INT8_SMALL is INT8 with the shared vocabulary table at `SMALL_VOCABULARY`."""
    bits = 4 if precision is Precision.INT4 else 8
    table = _vocabulary_table(decoder) if precision is Precision.INT8_SMALL else None
    decoder = _matmul_nbits(decoder, bits)
    if precision in (Precision.INT8, Precision.INT8_SMALL):
        decoder = share_embedding(decoder)
    if table is not None:
        decoder = requantize_vocabulary(decoder, table, SMALL_VOCABULARY)
    elif precision is Precision.INT8_ACCURATE:
        decoder = rescore_top_logits(decoder)
    return quantize_rows(encoder, signed_weights_exact(), keep_float=ENCODER_FLOAT_WEIGHTS), decoder

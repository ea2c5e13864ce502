"""The vocabulary table of an 8-bit decoder re-quantized on its own, coarser than the rest.

Whisper ties the token embedding to the output projection: in the `int8` decoder one
MatMulNBits table ([vocab, state / block, block] uint8) feeds both the projection and the
embedding's GatherBlockQuantized (`quantize.share_embedding`). For tiny.en it is 51864 x 384 =
20M of the model's 39M weights, about half of its xz'd size. `requantize_vocabulary` rewrites that
one table (both readers keep reading the same initializer) at a `VocabularyFormat`:

- `storage_bits` 4: two codes per byte (MatMulNBits / GatherBlockQuantized `bits=4`, zero point
  8): half the bytes on disk and in memory, and half the bandwidth of the projection per step.
- `storage_bits` 8 with `code_bits` < 8: the same 8-bit kernels and file size, but only
  2 ** code_bits distinct codes per block, so the table's entropy, which is what xz stores
  (xz already packs the 8-bit codes to about their order-0 entropy), falls.

bench/vocab_formats.py measures the formats (bench/results/vocab-formats.md): 4-bit cells in
blocks of 32 shrink the xz'd model most without clearly more words wrong (larger blocks shrink it
further but do get more words wrong); 6- and 5-bit codes in 8-bit cells are larger and no more
accurate than 4-bit cells. So `int8-small` uses 4-bit cells in blocks of 32.

`coarse_rows` re-quantizes only a range of rows, in the int8 table's own 8-bit cells and blocks
(no graph change): GPT-2's BPE ids follow its merge order, roughly frequency, so the high text ids
are the rare words; the special and timestamp tokens (`ENGLISH_TEXT_TOKENS` and up for the
English-only models) and the frequent words keep their int8 rows exactly.

Scales are per block of `block` weights along the state axis, chosen per block (from a small grid
around absmax / qmax) for the least squared error, and rounded to fp16 so the bundle stores them
as fp16 exactly (packaging/build_model.py).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import onnx
from numpy.typing import NDArray
from onnx import helper, numpy_helper

ENGLISH_TEXT_TOKENS = 50256
"""Ids below are GPT-2 BPE text tokens in the English-only vocabularies (51864 rows); 50256 is
<|endoftext|>, then <|startoftranscript|>, ..., <|notimestamps|> (50362) and the timestamps."""

SCALE_GRID = np.linspace(0.80, 1.10, 16)
"""Multipliers of absmax / qmax tried per block: a slightly smaller scale clips a lone outlier but
places every other weight on a finer grid."""


@dataclass(frozen=True)
class VocabularyFormat:
    """How the vocabulary table is stored: `code_bits` per weight in `storage_bits`-bit cells,
    one fp16 scale per `block` weights."""

    code_bits: int
    storage_bits: int
    block: int
    asymmetric: bool = False
    """Each block also gets its own zero point (codes span the block's [min, max], not +-absmax)."""
    coarse_rows: tuple[int, int] | None = None
    """Re-quantize only the rows (token ids) `start <= id < stop` at `code_bits`; every other row
    keeps the int8 table's codes and scales exactly (same 8-bit cells, same kernels: xz stores the
    coarse rows' fewer distinct codes smaller). None: the whole table."""

    def __post_init__(self) -> None:
        if self.storage_bits not in (4, 8):
            raise ValueError(f"storage_bits must be 4 or 8, not {self.storage_bits}")
        if self.coarse_rows is not None:
            start, stop = self.coarse_rows
            if self.storage_bits != 8 or self.asymmetric:
                raise ValueError("coarse_rows needs symmetric codes in 8-bit cells (the int8 table's layout)")
            if not 0 <= start < stop:
                raise ValueError(f"coarse_rows must be 0 <= start < stop, not {self.coarse_rows}")
        if not 2 <= self.code_bits <= self.storage_bits:
            raise ValueError(f"code_bits must be 2..{self.storage_bits}, not {self.code_bits}")
        if self.block < 16 or self.block & (self.block - 1):
            raise ValueError(f"block must be a power of two >= 16, not {self.block}")

    @property
    def zero_point(self) -> int:
        """The code of 0.0: MatMulNBits' and GatherBlockQuantized's default for uint8 cells."""
        return 1 << (self.storage_bits - 1)


def block_codes(table: NDArray[np.float32], fmt: VocabularyFormat) -> tuple[NDArray[np.uint8], NDArray[np.float32]]:
    """`table` [rows, state] float32 -> (codes [rows, state / block, block] uint8 with the zero point
    added, scales [rows, state / block] float32 that fp16 holds exactly)."""
    rows, state = table.shape
    blocks = table.reshape(rows, state // fmt.block, fmt.block).astype(np.float32)
    low, high = -(1 << (fmt.code_bits - 1)), (1 << (fmt.code_bits - 1)) - 1
    absmax = np.maximum(np.abs(blocks).max(axis=2), np.float32(1e-8))
    best_scale = np.zeros_like(absmax)
    best_error = np.full_like(absmax, np.inf)
    for ratio in SCALE_GRID:
        scale = (absmax / (high * ratio)).astype(np.float16).astype(np.float32)
        codes = np.clip(np.rint(blocks / scale[..., None]), low, high)
        error = ((codes * scale[..., None] - blocks) ** 2).sum(axis=2)
        better = error < best_error
        best_error[better], best_scale[better] = error[better], scale[better]
    codes = np.clip(np.rint(blocks / best_scale[..., None]), low, high) + fmt.zero_point
    return codes.astype(np.uint8), best_scale


def asymmetric_codes(
    blocks: NDArray[np.float32], bits: int
) -> tuple[NDArray[np.uint8], NDArray[np.float32], NDArray[np.uint8]]:
    """Blocks [rows, n_blocks, block] -> (codes uint8 in 0..2**bits - 1, same shape; scales [rows,
    n_blocks] float32 that fp16 holds exactly; zero points [rows, n_blocks] uint8): weight = (code -
    zero point) * scale, the scale per block picked from `SCALE_GRID` x (max - min) / qmax for the
    least squared error, its zero point the code nearest to 0.0."""
    qmax = (1 << bits) - 1
    low, high = np.minimum(blocks.min(axis=2), 0.0), np.maximum(blocks.max(axis=2), 0.0)
    span = np.maximum(high - low, np.float32(1e-8))
    best = (np.full(span.shape, np.inf, np.float32), np.zeros_like(span), np.zeros(span.shape, np.float32))
    for ratio in SCALE_GRID:
        scale = (span / (qmax * ratio)).astype(np.float16).astype(np.float32)
        zero = np.clip(np.rint(-(low + high) / 2 / scale + qmax / 2), 0, qmax)
        codes = np.clip(np.rint(blocks / scale[..., None]) + zero[..., None], 0, qmax)
        error = (((codes - zero[..., None]) * scale[..., None] - blocks) ** 2).sum(axis=2)
        better = error < best[0]
        best[0][better], best[1][better], best[2][better] = error[better], scale[better], zero[better]
    scale, zero = best[1], best[2]
    codes = np.clip(np.rint(blocks / scale[..., None]) + zero[..., None], 0, qmax)
    return codes.astype(np.uint8), scale, zero.astype(np.uint8)


def pack_cells(codes: NDArray[np.uint8], storage_bits: int) -> NDArray[np.uint8]:
    """Codes [..., block] -> MatMulNBits' cells: as they are at 8 bits; at 4 bits two per byte,
    the even position in the low nibble ([..., block / 2])."""
    if storage_bits == 8:
        return codes
    return (codes[..., 0::2] | (codes[..., 1::2] << 4)).astype(np.uint8)


def dequantize(codes: NDArray[np.uint8], scales: NDArray[np.float32], fmt: VocabularyFormat) -> NDArray[np.float32]:
    """The weights both readers compute from (codes, scales): [rows, state] float32."""
    values = (codes.astype(np.float32) - fmt.zero_point) * scales[..., None]
    return values.reshape(codes.shape[0], -1)


def _replace(graph: onnx.GraphProto, name: str, array: NDArray[np.generic]) -> None:
    old = next(t for t in graph.initializer if t.name == name)
    graph.initializer.remove(old)
    graph.initializer.append(numpy_helper.from_array(array, name))


def _set_attributes(node: onnx.NodeProto, **values: int) -> None:
    kept = [a for a in node.attribute if a.name not in values]
    del node.attribute[:]
    node.attribute.extend(kept + [helper.make_attribute(k, v) for k, v in values.items()])


def requantize_vocabulary(
    decoder: onnx.ModelProto, table: NDArray[np.float32], fmt: VocabularyFormat
) -> onnx.ModelProto:
    """Re-quantize an `int8` decoder's shared vocabulary table ([vocab, state] float32, the source
    embedding) at `fmt`, in place: the projection MatMulNBits and the embedding's
    GatherBlockQuantized still read one and the same initializer."""
    graph = decoder.graph
    proj = next(n for n in graph.node if n.op_type == "MatMulNBits" and n.input[1].startswith("decoder.projection_t"))
    gather = next(n for n in graph.node if n.op_type == "GatherBlockQuantized")
    if gather.input[0] != proj.input[1]:
        raise ValueError("the embedding does not read the projection's table: not an int8 decoder")
    if fmt.coarse_rows is not None:
        codes, scales = mixed_codes(graph, proj, table, fmt)
    elif fmt.asymmetric:
        rows, state = table.shape
        codes, scales, zero_points = asymmetric_codes(table.reshape(rows, state // fmt.block, fmt.block), fmt.code_bits)
        _add_zero_points(graph, proj, gather, zero_points, fmt.storage_bits)
    else:
        codes, scales = block_codes(table, fmt)
    _replace(graph, proj.input[1], pack_cells(codes, fmt.storage_bits))
    _replace(graph, proj.input[2], scales)
    _replace(graph, gather.input[2], scales[..., None])  # [vocab, blocks, 1]: the gather's layout
    _set_attributes(proj, bits=fmt.storage_bits, block_size=fmt.block)
    _set_attributes(gather, bits=fmt.storage_bits, block_size=fmt.block)
    return decoder


def mixed_codes(
    graph: onnx.GraphProto, proj: onnx.NodeProto, table: NDArray[np.float32], fmt: VocabularyFormat
) -> tuple[NDArray[np.uint8], NDArray[np.float32]]:
    """The int8 projection's own (codes [vocab, state / block, block] uint8, scales [vocab, state /
    block] float32) with the rows of `fmt.coarse_rows` replaced by `block_codes` of those rows of
    `table` ([vocab, state] float32) at `fmt.code_bits`: the frequent text tokens and the special and
    timestamp tokens (predicted in every segment) keep their 8-bit rows bit for bit."""
    assert fmt.coarse_rows is not None
    attributes = {a.name: a.i for a in proj.attribute}
    if (attributes.get("bits"), attributes.get("block_size")) != (8, fmt.block):
        raise ValueError(f"coarse_rows needs an 8-bit table in blocks of {fmt.block}, not {attributes}")
    inits = {t.name: t for t in graph.initializer}
    codes = numpy_helper.to_array(inits[proj.input[1]]).copy()
    scales = numpy_helper.to_array(inits[proj.input[2]]).astype(np.float32).reshape(codes.shape[:2])
    start, stop = fmt.coarse_rows
    if stop > codes.shape[0] or table.shape[0] != codes.shape[0]:
        raise ValueError(f"coarse_rows {fmt.coarse_rows} do not fit a table of {codes.shape[0]} rows")
    codes[start:stop], scales[start:stop] = block_codes(table[start:stop], fmt)
    return codes, scales


ZERO_POINTS = "decoder.vocabulary_zero_points"


def _add_zero_points(
    graph: onnx.GraphProto,
    proj: onnx.NodeProto,
    gather: onnx.NodeProto,
    zero_points: NDArray[np.uint8],
    storage_bits: int,
) -> None:
    """One stored zero-point table for both readers. MatMulNBits reads them packed per row ([rows *
    n_blocks / 2] at 4 bits, the even block in the low nibble); GatherBlockQuantized (onnxruntime
    1.32) reads one per byte, [rows, n_blocks, 1]: its copy is unpacked from the same bytes by
    BitShift / Concat / Reshape nodes that onnxruntime folds when the session loads."""
    rows, n_blocks = zero_points.shape
    if storage_bits != 4 or n_blocks % 2:
        raise ValueError("asymmetric tables need 4-bit cells and an even number of blocks per row")
    packed = (zero_points[:, 0::2] | (zero_points[:, 1::2] << 4)).reshape(-1, 1).astype(np.uint8)
    name = ZERO_POINTS
    graph.initializer.extend(
        [
            numpy_helper.from_array(packed.reshape(-1), name),
            numpy_helper.from_array(np.array([[4]], np.uint8), f"{name}.four"),
            numpy_helper.from_array(np.array([-1, 1], np.int64), f"{name}.column"),
            numpy_helper.from_array(np.array([rows, n_blocks, 1], np.int64), f"{name}.shape"),
        ]
    )
    nodes = [
        helper.make_node("Reshape", [name, f"{name}.column"], [f"{name}.bytes"]),
        helper.make_node("BitShift", [f"{name}.bytes", f"{name}.four"], [f"{name}.high"], direction="RIGHT"),
        helper.make_node("BitShift", [f"{name}.bytes", f"{name}.four"], [f"{name}.up"], direction="LEFT"),
        helper.make_node("BitShift", [f"{name}.up", f"{name}.four"], [f"{name}.low"], direction="RIGHT"),
        helper.make_node("Concat", [f"{name}.low", f"{name}.high"], [f"{name}.pairs"], axis=1),
        helper.make_node("Reshape", [f"{name}.pairs", f"{name}.shape"], [f"{name}.gather"]),
    ]
    for index, node in enumerate(nodes):
        node.name = f"{node.output[0]}.make"
        graph.node.insert(index, node)
    for node, zero_input in ((proj, name), (gather, f"{name}.gather")):
        while len(node.input) < 4:
            node.input.append("")
        node.input[3] = zero_input

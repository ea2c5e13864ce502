"""The vocabulary table of an 8-bit decoder re-quantized on its own, coarser than the rest.

Whisper ties the token embedding to the output projection: in the `int8` decoder one
MatMulNBits table ([vocab, state / block, block] uint8) feeds both the projection and the
embedding's GatherBlockQuantized (`quantize.share_embedding`). For tiny.en it is 51864 x 384 =
20M of the model's 39M weights, 17.3 of its 35.9 MB xz'd. `requantize_vocabulary` rewrites that
one table (both readers keep reading the same initializer) at a `VocabularyFormat`:

- `storage_bits` 4: two codes per byte (MatMulNBits / GatherBlockQuantized `bits=4`, zero point
  8): half the bytes on disk and in memory, and half the bandwidth of the projection per step.
- `storage_bits` 8 with `code_bits` < 8: the same 8-bit kernels and file size, but only
  2 ** code_bits distinct codes per block, so the table's entropy, which is what xz stores
  (xz already packs the 8-bit codes to their order-0 entropy: 6.9 bits per weight), falls.

Measured (bench/vocab_formats.py, bench/results/vocab-formats.md): 4-bit cells in blocks of 32
take the model from 35.93 to 25.28 MB xz'd (blocks of 64: 23.65, 128: 22.26, both with clearly
more words wrong); 6- and 5-bit codes in 8-bit cells 31.00 and 28.33 MB, no more accurate than
4-bit cells. `int8-small` uses 4-bit cells in blocks of 32.

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

    def __post_init__(self) -> None:
        if self.storage_bits not in (4, 8):
            raise ValueError(f"storage_bits must be 4 or 8, not {self.storage_bits}")
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


def requantize_vocabulary(decoder: onnx.ModelProto, table: NDArray[np.float32],
                          fmt: VocabularyFormat) -> onnx.ModelProto:
    """Re-quantize an `int8` decoder's shared vocabulary table ([vocab, state] float32, the source
    embedding) at `fmt`, in place: the projection MatMulNBits and the embedding's
    GatherBlockQuantized still read one and the same initializer."""
    graph = decoder.graph
    proj = next(n for n in graph.node if n.op_type == "MatMulNBits" and n.input[1].startswith("decoder.projection_t"))
    gather = next(n for n in graph.node if n.op_type == "GatherBlockQuantized")
    if gather.input[0] != proj.input[1]:
        raise ValueError("the embedding does not read the projection's table: not an int8 decoder")
    codes, scales = block_codes(table, fmt)
    _replace(graph, proj.input[1], pack_cells(codes, fmt.storage_bits))
    _replace(graph, proj.input[2], scales)
    _replace(graph, gather.input[2], scales[..., None])  # [vocab, blocks, 1]: the gather's layout
    _set_attributes(proj, bits=fmt.storage_bits, block_size=fmt.block)
    _set_attributes(gather, bits=fmt.storage_bits, block_size=fmt.block)
    return decoder

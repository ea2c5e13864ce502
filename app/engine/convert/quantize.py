"""Quantized graphs from the fp32 ones (both precisions are mixed per graph).

Encoder (compute-bound: 1500 rows per MatMul): int8 with one activation scale per row
(`row_quant.py`). onnxruntime's `quantize_dynamic` scales a whole activation tensor at once and
cost 3 WER points on tiny.en (5 of 10 clips token-identical to fp32); per-row scales keep the
WER of fp32 and 9 of 10 clips identical (bench/compare.py).
Decoder (bandwidth-bound: one row per step): MatMulNBits, blocks of 32, accuracy_level 4 (int8
compute): 8-bit for `int8` (near-exact), 4-bit for `int4` (fastest, less accurate).
"""

from __future__ import annotations

import logging

import onnx

from app.engine.convert.int8_kernels import signed_weights_exact
from app.engine.convert.row_quant import quantize_rows
from app.engine.types import Precision


def _matmul_nbits(model: onnx.ModelProto, bits: int) -> onnx.ModelProto:
    from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer

    logging.getLogger("onnxruntime.quantization.matmul_nbits_quantizer").setLevel(logging.WARNING)
    quantizer = MatMulNBitsQuantizer(model, bits=bits, block_size=32, is_symmetric=True, accuracy_level=4)
    quantizer.process()
    result: onnx.ModelProto = quantizer.model.model
    return result


def quantize_pair(encoder: onnx.ModelProto, decoder: onnx.ModelProto,
                  precision: Precision) -> tuple[onnx.ModelProto, onnx.ModelProto]:
    """(encoder, decoder) fp32 graphs -> their `precision` (INT8 or INT4) versions."""
    bits = 4 if precision is Precision.INT4 else 8
    return quantize_rows(encoder, signed_weights_exact()), _matmul_nbits(decoder, bits)

"""Quantized graphs from the fp32 ones.

Encoder (compute-bound, 1500 rows per MatMul): `quantize_dynamic` QInt8 weights. Decoder
(bandwidth-bound, one row per step): MatMulNBits with blocks of 32 and accuracy_level 4
(int8 compute) -- 8-bit for `int8`, which keeps tokens near-exact, 4-bit for `int4`.
"""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path

import onnx
from onnx import TensorProto

from app.engine.types import Precision


def _dynamic_int8(model: onnx.ModelProto, work: Path, name: str) -> onnx.ModelProto:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    logging.getLogger().setLevel(max(logging.getLogger().level, logging.ERROR))  # quiet its advice

    src, dst = work / f"{name}.fp32.onnx", work / f"{name}.int8.onnx"
    onnx.save(model, str(src))
    quantize_dynamic(
        str(src), str(dst), weight_type=QuantType.QInt8, op_types_to_quantize=["MatMul"],
        extra_options={"DefaultTensorType": TensorProto.FLOAT},
    )
    return onnx.load(str(dst))


def _matmul_nbits(model: onnx.ModelProto, bits: int) -> onnx.ModelProto:
    from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer

    logging.getLogger("onnxruntime.quantization.matmul_nbits_quantizer").setLevel(logging.WARNING)

    quantizer = MatMulNBitsQuantizer(model, bits=bits, block_size=32, is_symmetric=True, accuracy_level=4)
    quantizer.process()
    result: onnx.ModelProto = quantizer.model.model
    return result


def quantize_pair(encoder: onnx.ModelProto, decoder: onnx.ModelProto, precision: Precision,
                  out_dir: Path) -> tuple[onnx.ModelProto, onnx.ModelProto]:
    with tempfile.TemporaryDirectory(dir=out_dir) as tmp:
        work = Path(tmp)
        if precision is not Precision.FP32_INT8_DECODER:
            encoder = _dynamic_int8(encoder, work, "encoder")
        decoder = _matmul_nbits(decoder, 4 if precision is Precision.INT4 else 8)
    return encoder, decoder

"""The int8 decoder's two readers of its shared vocabulary table, as a small graph for the
vocabulary-table tests: MatMulNBits (the output projection, logits) and GatherBlockQuantized (the
token embedding, rows), reading one 8-bit table as the converter writes it."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

TABLE = "decoder.projection_t_Q8"


def int8_readers(codes: np.ndarray, scales: np.ndarray) -> onnx.ModelProto:
    """`codes` [rows, state / block, block] uint8 (zero point 128), `scales` [rows, state / block]
    float32 -> a model with inputs state [1, state] float32 and tokens [n] int64, outputs logits
    and rows."""
    rows, n_blocks, block = codes.shape
    inits = [numpy_helper.from_array(codes, TABLE), numpy_helper.from_array(scales, "scales"),
             numpy_helper.from_array(scales[..., None], "gather_scales")]
    nodes = [helper.make_node("MatMulNBits", ["state", TABLE, "scales"], ["logits"], domain="com.microsoft",
                              K=n_blocks * block, N=rows, bits=8, block_size=block, accuracy_level=0),
             helper.make_node("GatherBlockQuantized", [TABLE, "tokens", "gather_scales"], ["rows"],
                              domain="com.microsoft", gather_axis=0, quantize_axis=2, block_size=block, bits=8)]
    inputs = [helper.make_tensor_value_info("state", TensorProto.FLOAT, [1, n_blocks * block]),
              helper.make_tensor_value_info("tokens", TensorProto.INT64, [None])]
    outputs = [helper.make_tensor_value_info("logits", TensorProto.FLOAT, None),
               helper.make_tensor_value_info("rows", TensorProto.FLOAT, None)]
    graph = helper.make_graph(nodes, "readers", inputs, outputs, inits)
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)]
    return helper.make_model(graph, opset_imports=opsets)

"""int8 MatMuls with one activation scale per row (per token), built from standard ONNX ops.

onnxruntime's `quantize_dynamic` gives a whole activation tensor (1500 positions of the encoder)
one scale, so a few loud positions crush the resolution of all others and Whisper's accuracy
drops. Here each row x[t, :] gets its own symmetric scale max|x[t]| / 127; weights are int8
per output column with a 7-bit range (+-63), because AVX2 without VNNI multiplies uint8 by int8
in int16 pairs that would saturate at full range.

    y = (MatMulInteger(round(x / s_row) + 128, W_q, a_zero_point=128) as float) * s_row * s_col
"""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
from numpy.typing import NDArray
from onnx import TensorProto, helper, numpy_helper

_WEIGHT_LEVELS = 127.0


def _quantize_weight(weight: NDArray[np.float32]) -> tuple[NDArray[np.int8], NDArray[np.float32]]:
    """[K, N] float -> (int8 [K, N], scale [N] float32), symmetric per column."""
    scale = np.maximum(np.abs(weight).max(axis=0), 1e-8) / _WEIGHT_LEVELS
    q = np.clip(np.round(weight / scale), -_WEIGHT_LEVELS, _WEIGHT_LEVELS).astype(np.int8)
    return q, scale.astype(np.float32)


def quantize_rows(model: onnx.ModelProto, min_elements: int = 16384) -> onnx.ModelProto:
    """Rewrite every MatMul whose second input is a float initializer of at least
    `min_elements` values into the per-row int8 form above."""
    graph = model.graph
    inits = {t.name: t for t in graph.initializer}
    shared = [
        numpy_helper.from_array(np.array(128, dtype=np.uint8), "rowq.zp"),
        numpy_helper.from_array(np.array(1.0 / 127.0, dtype=np.float32), "rowq.inv127"),
        numpy_helper.from_array(np.array(1e-8, dtype=np.float32), "rowq.eps"),
        numpy_helper.from_array(np.array(128.0, dtype=np.float32), "rowq.offset"),
    ]
    new_nodes: list[onnx.NodeProto] = []
    for node in graph.node:
        weight = inits.get(node.input[1]) if node.op_type == "MatMul" and len(node.input) == 2 else None
        if weight is None or weight.data_type != TensorProto.FLOAT:
            new_nodes.append(node)
            continue
        array = numpy_helper.to_array(weight)
        if array.ndim != 2 or array.size < min_elements:
            new_nodes.append(node)
            continue
        q, scale = _quantize_weight(array)
        base = node.name or node.output[0]
        graph.initializer.extend([numpy_helper.from_array(q, f"{base}.wq"),
                                  numpy_helper.from_array(scale, f"{base}.wscale")])
        new_nodes.extend(_row_matmul(node.input[0], node.output[0], base))
    del graph.node[:]
    graph.node.extend(new_nodes)
    graph.initializer.extend(shared)
    used = {i for n in graph.node for i in n.input}
    keep = [t for t in graph.initializer if t.name in used]
    del graph.initializer[:]
    graph.initializer.extend(keep)
    return model


def _row_matmul(x: str, y: str, base: str) -> list[onnx.NodeProto]:
    def n(op: str, inputs: list[str], out: str, **attrs: Any) -> onnx.NodeProto:
        return helper.make_node(op, inputs, [out], name=f"{base}.{out.split('.')[-1]}", **attrs)

    p = f"{base}.rq"
    return [
        n("Abs", [x], f"{p}.abs"),
        n("ReduceMax", [f"{p}.abs"], f"{p}.max", axes=[-1], keepdims=1),
        n("Max", [f"{p}.max", "rowq.eps"], f"{p}.maxc"),
        n("Mul", [f"{p}.maxc", "rowq.inv127"], f"{p}.scale"),  # [.., rows, 1]
        n("Div", [x, f"{p}.scale"], f"{p}.scaled"),
        n("Round", [f"{p}.scaled"], f"{p}.round"),
        n("Add", [f"{p}.round", "rowq.offset"], f"{p}.shift"),
        n("Cast", [f"{p}.shift"], f"{p}.u8", to=TensorProto.UINT8),
        n("MatMulInteger", [f"{p}.u8", f"{base}.wq", "rowq.zp"], f"{p}.i32"),
        n("Cast", [f"{p}.i32"], f"{p}.f32", to=TensorProto.FLOAT),
        n("Mul", [f"{p}.f32", f"{p}.scale"], f"{p}.rows"),
        n("Mul", [f"{p}.rows", f"{base}.wscale"], y),
    ]

"""int8 MatMuls with one activation scale per row (per token), from ONNX and com.microsoft ops.

onnxruntime's `quantize_dynamic` gives a whole activation tensor (1500 positions of the encoder)
one scale, so a few loud positions crush the resolution of all others and Whisper's accuracy
drops. Here each row x[t, :] gets its own symmetric scale max|x[t]| / 127; weights are symmetric
per output column at full 8-bit range (a 7-bit range, +-63, gets more words wrong).
Where the CPU's int8 GEMM could saturate, the weights are stored as uint8 (`int8_kernels.py`).

    y = MatMulIntegerToFloat(QuantizeLinear(x, s_row, 128), W_q, b_scale=s_col) * s_row
"""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
from numpy.typing import NDArray
from onnx import TensorProto, helper, numpy_helper

_WEIGHT_LEVELS = 127.0


def _quantize_weight(weight: NDArray[np.float32], signed: bool) -> tuple[NDArray[np.integer[Any]], NDArray[np.float32]]:
    """[K, N] float -> (int8 [K, N], or uint8 = int8 + 128 when not `signed`; scale [N] float32),
    symmetric per column."""
    scale = np.maximum(np.abs(weight).max(axis=0), 1e-8) / _WEIGHT_LEVELS
    q = np.clip(np.round(weight / scale), -_WEIGHT_LEVELS, _WEIGHT_LEVELS)
    stored = q.astype(np.int8) if signed else (q + 128).astype(np.uint8)
    return stored, scale.astype(np.float32)


def quantize_rows(
    model: onnx.ModelProto,
    signed_weights: bool = True,
    min_elements: int = 16384,
    keep_float: frozenset[str] = frozenset(),
) -> onnx.ModelProto:
    """Rewrite every MatMul whose second input is a float initializer of at least
    `min_elements` values, and not named in `keep_float`, into the per-row int8 form above
    (`signed_weights`: int8, else uint8 with zero point 128)."""
    graph = model.graph
    inits = {t.name: t for t in graph.initializer}
    new_nodes: list[onnx.NodeProto] = []
    widths: set[int] = set()
    quantized: dict[str, str] = {}  # float input -> prefix of its quantized form
    for node in graph.node:
        array = _float_weight(node, inits, min_elements, keep_float)
        if array is None:
            new_nodes.append(node)
            continue
        q, scale = _quantize_weight(array, signed_weights)
        base = node.name or node.output[0]
        graph.initializer.extend(
            [numpy_helper.from_array(q, f"{base}.wq"), numpy_helper.from_array(scale, f"{base}.wscale")]
        )
        if node.input[0] not in quantized:  # MatMuls that read the same input share its quantization
            quantized[node.input[0]] = f"{base}.rq"
            new_nodes.extend(_quantize_input(node.input[0], f"{base}.rq", array.shape[0]))
        new_nodes.extend(_integer_matmul(quantized[node.input[0]], node.output[0], base, signed_weights))
        widths.add(array.shape[0])
    del graph.node[:]
    graph.node.extend(new_nodes)
    graph.initializer.extend(_shared_constants())
    graph.initializer.extend(
        numpy_helper.from_array(np.array([-1, k], dtype=np.int64), _const_name(k)) for k in sorted(widths)
    )
    _drop_unused_initializers(graph)
    return model


def _float_weight(
    node: onnx.NodeProto, inits: dict[str, onnx.TensorProto], min_elements: int, keep_float: frozenset[str]
) -> NDArray[np.float32] | None:
    """The float weight matrix [k, n] of a MatMul that is to be quantized; None for any other node."""
    weight = inits.get(node.input[1]) if node.op_type == "MatMul" and len(node.input) == 2 else None
    if weight is None or weight.data_type != TensorProto.FLOAT or weight.name in keep_float:
        return None
    array: NDArray[np.float32] = numpy_helper.to_array(weight)
    return array if array.ndim == 2 and array.size >= min_elements else None


def _shared_constants() -> list[onnx.TensorProto]:
    """The scalars every quantized MatMul's nodes read."""
    return [
        numpy_helper.from_array(np.array(128, dtype=np.uint8), "rowq.zp"),
        numpy_helper.from_array(np.array(1.0 / 127.0, dtype=np.float32), "rowq.inv127"),
        numpy_helper.from_array(np.array(1e-8, dtype=np.float32), "rowq.eps"),
        numpy_helper.from_array(np.array(128.0, dtype=np.float32), "rowq.offset"),
        numpy_helper.from_array(np.array(0.0, dtype=np.float32), "rowq.zero"),
        numpy_helper.from_array(np.array(1.0, dtype=np.float32), "rowq.one"),
        numpy_helper.from_array(np.array([-1], dtype=np.int64), "rowq.flat"),
    ]


def _drop_unused_initializers(graph: onnx.GraphProto) -> None:
    used = {i for n in graph.node for i in n.input}
    keep = [t for t in graph.initializer if t.name in used]
    del graph.initializer[:]
    graph.initializer.extend(keep)


def _node(op: str, inputs: list[str], out: str, **attrs: Any) -> onnx.NodeProto:
    return helper.make_node(op, inputs, [out], name=out, **attrs)


def _quantize_input(x: str, p: str, k: int) -> list[onnx.NodeProto]:
    """x [..., rows, k] float32 -> `{p}.u8` (same shape, uint8, zero point 128) and `{p}.scale`
    [..., rows, 1] float32, one symmetric scale per row."""
    n = _node
    return [
        n("Abs", [x], f"{p}.abs"),
        n("ReduceMax", [f"{p}.abs"], f"{p}.max", axes=[-1], keepdims=1),
        n("Max", [f"{p}.max", "rowq.eps"], f"{p}.maxc"),
        n("Mul", [f"{p}.maxc", "rowq.inv127"], f"{p}.scale"),
        # QuantizeLinear takes one scale per row only along one axis of a 2-D view ([rows, k]),
        # and fuses divide, round, shift and saturate in one pass (as 4 passes they are a sizeable
        # share of the encoder's time).
        n("Reshape", [f"{p}.scale", "rowq.flat"], f"{p}.scale_rows"),
        n("Mul", [f"{p}.scale_rows", "rowq.zero"], f"{p}.zeros"),
        n("Add", [f"{p}.zeros", "rowq.offset"], f"{p}.zp_f"),
        n("Cast", [f"{p}.zp_f"], f"{p}.zp", to=TensorProto.UINT8),
        n("Reshape", [x, _const_name(k)], f"{p}.x2d"),
        n("QuantizeLinear", [f"{p}.x2d", f"{p}.scale_rows", f"{p}.zp"], f"{p}.q2d", axis=0),
        n("Shape", [x], f"{p}.shape"),
        n("Reshape", [f"{p}.q2d", f"{p}.shape"], f"{p}.u8"),
    ]


def _integer_matmul(p: str, y: str, base: str, signed_weights: bool) -> list[onnx.NodeProto]:
    """y [..., rows, n] float32 = (`{p}.u8` @ `{base}.wq`) * column scales * row scales."""
    weight_zero_point = [] if signed_weights else ["rowq.zp"]
    return [
        # The column scales and the int32 -> float conversion run inside the GEMM's output loop.
        helper.make_node(
            "MatMulIntegerToFloat",
            [f"{p}.u8", f"{base}.wq", "rowq.one", f"{base}.wscale", "rowq.zp", *weight_zero_point],
            [f"{base}.cols"],
            name=f"{base}.cols",
            domain="com.microsoft",
        ),
        _node("Mul", [f"{base}.cols", f"{p}.scale"], y),
    ]


def _const_name(k: int) -> str:
    return f"rowq.shape_2d_{k}"

"""A small helper over `onnx.helper` that names nodes and holds initializers.

Floating initializers are stored in the builder's `dtype` (float32 or float16); the graphs'
activations and KV caches use that same dtype, so caches always match the model's precision.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
from numpy.typing import NDArray
from onnx import TensorProto, helper, numpy_helper

MS_DOMAIN = "com.microsoft"
OPSET = 17


class GraphBuilder:
    """Accumulates nodes, initializers, inputs and outputs of one ONNX graph."""

    def __init__(self, name: str, dtype: type[np.floating[Any]] = np.float32) -> None:
        self.name = name
        self.dtype = np.dtype(dtype)
        self.onnx_dtype = TensorProto.FLOAT16 if self.dtype == np.float16 else TensorProto.FLOAT
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[onnx.TensorProto] = []
        self.inputs: list[onnx.ValueInfoProto] = []
        self.outputs: list[onnx.ValueInfoProto] = []
        self._counter = 0
        self._consts: dict[str, NDArray[Any]] = {}

    def fresh(self, hint: str) -> str:
        self._counter += 1
        return f"{hint}_{self._counter}"

    def weight(self, name: str, array: NDArray[Any]) -> str:
        """Add a floating initializer converted to the graph dtype."""
        tensor = numpy_helper.from_array(np.ascontiguousarray(array, dtype=self.dtype), name)
        self.initializers.append(tensor)
        return name

    def const(self, name: str, array: NDArray[Any]) -> str:
        """Add an initializer kept in its own dtype (shapes, indices); a name already added is
        reused as it is (callers name shared constants by what they hold)."""
        value = np.asarray(array)
        if name in self._consts:
            assert np.array_equal(self._consts[name], value), f"constant {name!r} reused with another value"
            return name
        self._consts[name] = value
        self.initializers.append(numpy_helper.from_array(value, name))
        return name

    def op(self, op_type: str, inputs: list[str], n_out: int = 1, domain: str = "", **attrs: Any) -> list[str]:
        outputs = [self.fresh(op_type.lower()) for _ in range(n_out)]
        self.nodes.append(helper.make_node(op_type, inputs, outputs, name=self.fresh(op_type), domain=domain, **attrs))
        return outputs

    def op1(self, op_type: str, inputs: list[str], domain: str = "", **attrs: Any) -> str:
        return self.op(op_type, inputs, 1, domain, **attrs)[0]

    def add_input(self, name: str, elem_type: int, shape: list[int | str]) -> str:
        self.inputs.append(helper.make_tensor_value_info(name, elem_type, shape))
        return name

    def add_output(self, value: str, name: str, elem_type: int, shape: list[int | str]) -> str:
        self.nodes.append(helper.make_node("Identity", [value], [name], name=self.fresh("out")))
        self.outputs.append(helper.make_tensor_value_info(name, elem_type, shape))
        return name

    # -- building blocks shared by the encoder and decoder -------------------------------------

    def linear(self, x: str, weight: NDArray[Any], bias: NDArray[Any] | None, prefix: str) -> str:
        """x @ weight.T + bias; `weight` is [out, in] as stored by PyTorch and CTranslate2."""
        y = self.op1("MatMul", [x, self.weight(f"{prefix}.weight_t", weight.T)])
        if bias is None or not np.any(bias):
            return y
        return self.op1("Add", [y, self.weight(f"{prefix}.bias", bias)])

    def layer_norm(self, x: str, gamma: NDArray[Any], beta: NDArray[Any], prefix: str) -> str:
        return self.op1(
            "LayerNormalization",
            [x, self.weight(f"{prefix}.gamma", gamma), self.weight(f"{prefix}.beta", beta)],
            axis=-1,
            epsilon=1e-5,
        )

    def mlp(self, x: str, tensors: dict[str, NDArray[Any]], prefix: str) -> str:
        """Whisper's feed-forward block: Linear -> GELU (erf) -> Linear."""
        w0, b0 = tensors[f"{prefix}/linear_0/weight"], tensors[f"{prefix}/linear_0/bias"]
        h = self.op1("MatMul", [x, self.weight(f"{prefix}.fc1.weight_t", w0.T)])
        h = self.op1("BiasGelu", [h, self.weight(f"{prefix}.fc1.bias", b0)], domain=MS_DOMAIN)
        w1, b1 = tensors[f"{prefix}/linear_1/weight"], tensors[f"{prefix}/linear_1/bias"]
        return self.linear(h, w1, b1, f"{prefix}.fc2")

    def build(self, metadata: dict[str, str]) -> onnx.ModelProto:
        graph = helper.make_graph(self.nodes, self.name, self.inputs, self.outputs, self.initializers)
        model = helper.make_model(
            graph,
            opset_imports=[helper.make_opsetid("", OPSET), helper.make_opsetid(MS_DOMAIN, 1)],
            producer_name="earshot",
        )
        model.ir_version = 8
        for key, value in metadata.items():
            entry = model.metadata_props.add()
            entry.key, entry.value = key, value
        return model

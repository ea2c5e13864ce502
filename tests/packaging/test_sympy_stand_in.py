"""SymPy's stand-in in the frozen app (packaging/stand_ins/sympy): with it first on the path, as
PyInstaller finds it, onnxruntime's MatMulNBits quantizer (which imports onnx_ir, which imports
sympy) quantizes a graph with a symbolic batch dimension to exactly the bytes it gives with the real
SymPy, loads neither SymPy nor mpmath, and symbolic shape arithmetic fails with one clear message."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
from earshot_testing import REPO_ROOT
from onnx import TensorProto, helper, numpy_helper

STAND_INS = REPO_ROOT / "packaging" / "stand_ins"

QUANTIZE = '''
import sys
import onnx
from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer

def quantize(path, bits):
    quantizer = MatMulNBitsQuantizer(onnx.load(path), bits=bits, block_size=32, is_symmetric=True, accuracy_level=4)
    quantizer.process()
    return quantizer.model.model.SerializeToString()
'''

CHILD = QUANTIZE + '''
import sympy
assert sympy.__file__.startswith(sys.argv[1]), sympy.__file__
for bits in (4, 8):
    with open(f"{sys.argv[3]}.{bits}", "wb") as out:
        out.write(quantize(sys.argv[2], bits))
assert "mpmath" not in sys.modules, "mpmath was imported"
'''


def _matmul_model(path: Path) -> None:
    """x [batch, 64] float32 @ W [64, 96] -> y [batch, 96]."""
    weight = np.random.default_rng(19).standard_normal((64, 96)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 64])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 96])],
        [numpy_helper.from_array(weight, "w")])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)]), path)


def _with_stand_in(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=REPO_ROOT, timeout=300,
                          env={"PYTHONPATH": f"{STAND_INS}:{REPO_ROOT}"})


def test_matmul_nbits_quantizes_the_same_bytes_with_the_stand_in(tmp_path: Path) -> None:
    model = tmp_path / "matmul.onnx"
    _matmul_model(model)
    result = _with_stand_in("-c", CHILD, str(STAND_INS), str(model), str(tmp_path / "q"))
    assert result.returncode == 0, result.stderr
    scope: dict[str, object] = {}
    exec(QUANTIZE, scope)
    for bits in (4, 8):
        expected = scope["quantize"](str(model), bits)  # type: ignore[operator]  # the real SymPy
        got = (tmp_path / f"q.{bits}").read_bytes()
        assert b"MatMulNBits" in got
        assert got == expected, bits


def test_symbolic_shape_arithmetic_says_sympy_is_left_out() -> None:
    script = ("import onnx_ir as ir\n"
              "try:\n"
              "    ir.SymbolicDim('batch') + 1\n"
              "except RuntimeError as error:\n"
              "    print(type(error).__name__, error)\n")
    result = _with_stand_in("-c", script)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("SymPyNotBundled sympy.")
    assert "symbolic shape arithmetic needs SymPy, which this build of Earshot leaves out" in result.stdout

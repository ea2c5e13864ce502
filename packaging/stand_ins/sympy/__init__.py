"""Earshot's stand-in for SymPy in the frozen app: packaging/earshot.spec puts packaging/stand_ins
first on PyInstaller's search path, so `import sympy` finds this module, and SymPy (a large part of
the executable's Python modules) and mpmath (needed by SymPy alone) are not bundled.

Who imports sympy at run time: onnx_ir, at its import (onnxruntime's MatMulNBits quantizer imports
onnx_ir; Earshot runs that quantizer when it converts an imported model to int8/int4). onnx_ir uses
SymPy only for arithmetic on symbolic tensor dimensions ("batch" + 1, parsing "max(a, b)"); the
quantizer only reads and writes tensors. So the names onnx_ir reads at import exist here, `Expr` is
a class nothing is an instance of, and calling anything raises one clear error.
tests/packaging/test_sympy_stand_in.py quantizes with it; the bundle tests import and quantize a model.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

__version__ = "0+earshot.stand.in"


class SymPyNotBundled(RuntimeError):
    """A SymPy function was called in the frozen app, which carries this stand-in instead."""


class Expr:
    """No value is a sympy.Expr here (onnx_ir checks `isinstance(value, sympy.Expr)`)."""


Basic = Expr


def _not_bundled(name: str) -> Callable[..., NoReturn]:
    def call(*_args: object, **_kwargs: object) -> NoReturn:
        raise SymPyNotBundled(f"sympy.{name} was called: symbolic shape arithmetic needs SymPy, "
                              "which this build of Earshot leaves out (packaging/stand_ins/sympy)")

    call.__name__ = name
    return call


def __getattr__(name: str) -> Callable[..., NoReturn]:
    if name.startswith("__"):
        raise AttributeError(name)
    return _not_bundled(name)

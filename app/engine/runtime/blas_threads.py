"""Keep numpy's BLAS on one thread.

The only BLAS work in Earshot is the log-mel filterbank product (a few ms). OpenBLAS runs it on
every core and its threads then busy-wait for more work, on the cores onnxruntime's encoder
needs next, so the encoder right after a log-mel runs markedly slower than with OpenBLAS on one
thread. onnxruntime does all the heavy work with its own threads.
"""

from __future__ import annotations

import ctypes
from pathlib import Path

_SETTERS = (
    "scipy_openblas_set_num_threads64_",  # numpy >= 2 wheels (ILP64 scipy-openblas)
    "scipy_openblas_set_num_threads",
    "openblas_set_num_threads64_",
    "openblas_set_num_threads",
)


def _openblas_libraries() -> list[Path]:
    """The OpenBLAS that numpy's wheel bundles (numpy.libs on Linux and Windows, .dylibs on macOS)."""
    import numpy

    root = Path(numpy.__file__).parent
    return [*root.parent.glob("numpy.libs/*openblas*"), *root.glob(".dylibs/*openblas*")]


def limit_numpy_blas_threads(threads: int = 1) -> bool:
    """Set numpy's OpenBLAS to `threads` threads; False if none was found (e.g. Accelerate on macOS,
    which does not spin). `OPENBLAS_NUM_THREADS=1` does the same, but only before numpy loads."""
    for path in _openblas_libraries():
        try:
            library = ctypes.CDLL(str(path))
        except OSError:
            continue
        for name in _SETTERS:
            setter = getattr(library, name, None)
            if setter is not None:
                setter(ctypes.c_int(threads))
                return True
    return False

"""Replace NumPy's OpenBLAS in the bundle (numpy.libs/libscipy_openblas64_-<hash>.so, and the
Fortran runtime only it links: libgfortran, libquadmath; together one of the bundle's largest parts)
by packaging/numpy_blas.c: a small library of the same name that defines every symbol NumPy imports
from it.

NumPy uses BLAS for matmul/dot/vdot/inner on contiguous float and complex arrays (22 CBLAS functions:
gemm, gemv, syrk, axpy, dot); numpy_blas.c computes them (one thread; its float gemm runs the app's mel
filterbank product as fast as single-threaded OpenBLAS, and only large products, which the app never
runs, are slower). numpy.linalg's
LAPACK is not carried: its entry points print one line to stderr and NumPy raises LinAlgError.
Nothing the frozen app runs calls numpy.linalg: app/ never does, and among the packages it bundles
only code it never imports does (onnxruntime.quantization's GPTQ and qdq_loss_debug, onnx.reference's
Det, sympy's printers). tests/packaging/test_blas_shim.py compares the shim with the real OpenBLAS;
the bundle tests transcribe, replay a dictation and import + quantize a model through it.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from prune_bundle import elf_needed

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "numpy_blas.c"
OPENBLAS_PREFIX = "libscipy_openblas64_"
# Linked by OpenBLAS alone (its Fortran LAPACK); dropped once nothing else in the bundle needs them.
FORTRAN_RUNTIME = ("libgfortran-", "libquadmath-")
CFLAGS = ("-shared", "-fPIC", "-O3", "-ffp-contract=fast", "-s")


def symbols(path: Path, *flags: str) -> set[str]:
    """Dynamic symbol names of an ELF file (`nm -D FLAGS`), without their versions."""
    out = subprocess.run(["nm", "-D", *flags, str(path)], check=True, capture_output=True, text=True).stdout
    return {line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip()}


def build_shim(target: Path) -> None:
    """Compile numpy_blas.c into `target`, with the target's file name as its soname."""
    subprocess.run(["cc", *CFLAGS, f"-Wl,-soname,{target.name}", "-o", str(target), str(SOURCE)], check=True)


def _replace(library: Path, users: list[Path]) -> None:
    """Swap `library` for the shim, after checking the shim defines all `users` take from it."""
    wanted = set().union(*(symbols(u, "--undefined-only") for u in users)) & symbols(library, "--defined-only")
    with tempfile.TemporaryDirectory() as tmp:
        shim = Path(tmp) / library.name
        build_shim(shim)
        missing = wanted - symbols(shim, "--defined-only")
        if missing:
            raise RuntimeError(f"packaging/numpy_blas.c lacks what NumPy imports from {library.name}: "
                               f"{sorted(missing)}")
        library.unlink()
        shim.replace(library)


def drop_unneeded(bundle: Path, elf_files: list[Path], prefixes: tuple[str, ...]) -> int:
    """Delete the files named `prefixes*` that no other bundled binary links, and the links PyInstaller
    made to them (`_internal/libgfortran-*.so.5 -> numpy.libs/...`); returns the bytes freed."""
    freed, dropped = 0, True
    while dropped:  # until none is left that only dropped files linked (libgfortran links libquadmath)
        present = [p for p in elf_files if p.exists() and not p.is_symlink()]
        needed = {name for p in present for name in elf_needed(str(p)) if name != p.name}
        orphans = [p for p in present if p.name.startswith(prefixes) and p.name not in needed]
        for path in orphans:
            freed += path.stat().st_size
            path.unlink()
            print(f"slim: dropped {path.name} (nothing left links it)")
        dropped = bool(orphans)
    for link in bundle.rglob("*"):
        if link.is_symlink() and not link.exists() and link.name.startswith(prefixes):
            link.unlink()
    return freed


def replace_openblas(bundle: Path, elf_files: list[Path]) -> int:
    """Replace each bundled OpenBLAS of NumPy by the shim and drop the Fortran runtime it alone
    needed; returns the bytes saved."""
    saved = 0
    for library in [p for p in elf_files if p.name.startswith(OPENBLAS_PREFIX)]:
        before = library.stat().st_size
        _replace(library, [p for p in elf_files if library.name in elf_needed(str(p))])
        saved += before - library.stat().st_size
        print(f"blas shim: {library.relative_to(bundle)} {before / 1e6:.1f} MB -> {library.stat().st_size} bytes")
    return saved + drop_unneeded(bundle, elf_files, FORTRAN_RUNTIME) if saved else 0

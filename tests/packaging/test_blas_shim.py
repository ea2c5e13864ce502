"""The stand-in for NumPy's OpenBLAS (packaging/blas_shim.py, packaging/numpy_blas.c) on a copy of the
real NumPy wheel: it is small, defines everything NumPy imports from OpenBLAS, the Fortran runtime
goes with OpenBLAS, and the copied NumPy, in a new process, gives the products the real OpenBLAS gives
(matmul, dot, vdot, inner, A @ A.T in float32/64 and complex64/128, every memory layout, sizes across
the shim's block edges, NaN/inf, a NaN-filled `out=`), the app's log-mel features, and a clear error
for numpy.linalg, which the app does not use."""

from __future__ import annotations

import shutil
import subprocess
import sys
import wave
from pathlib import Path

import numpy as np
import pytest
from earshot_testing import DATA_DIR, REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "packaging"))
from blas_shim import FORTRAN_RUNTIME, OPENBLAS_PREFIX, replace_openblas, symbols
from build_linux import elf_files_under
from prune_bundle import elf_needed

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the shim is built on Linux")
NUMPY_PACKAGE = Path(np.__file__).resolve().parent
NUMPY_LIBS = NUMPY_PACKAGE.parent / "numpy.libs"

# Run by this process (the real OpenBLAS) and by the shimmed copy: the same inputs (fixed seed), the
# same operations; `products()` returns {case name: result}.
PRODUCTS = '''
import numpy as np

def _rand(rng, shape, dtype):
    x = rng.uniform(-1, 1, shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.uniform(-1, 1, shape)
    return x.astype(dtype)

def products():
    rng = np.random.default_rng(19)
    out = {}
    for dtype in (np.float32, np.float64, np.complex64, np.complex128):
        t = np.dtype(dtype).name
        # (m, k, n): tiny, odd, the mel filterbank (80 x 201 by frames), across the 6-row, 16-column,
        # 96-row and 256-deep blocks, one row / one column
        for m, k, n in ((1, 1, 1), (7, 5, 3), (80, 201, 300), (130, 257, 513), (97, 600, 17), (1, 40, 33), (33, 40, 1)):
            a, b = _rand(rng, (m, k), dtype), _rand(rng, (k, n), dtype)
            out[f"{t} {m}x{k}x{n} C@C"] = a @ b
            out[f"{t} {m}x{k}x{n} F@F"] = np.asfortranarray(a) @ np.asfortranarray(b)
            out[f"{t} {m}x{k}x{n} T@T"] = np.ascontiguousarray(a.T).T @ np.ascontiguousarray(b.T).T
            out[f"{t} {m}x{k}x{n} C@F"] = a @ np.asfortranarray(b)
            out[f"{t} {m}x{k}x{n} A@A.T"] = a @ a.T
            out[f"{t} {m}x{k}x{n} A.T@A"] = a.T @ a
            out[f"{t} {m}x{k}x{n} A@v"] = a @ b[:, 0]
            out[f"{t} {m}x{k}x{n} v@A"] = a[0] @ b
            out[f"{t} {m}x{k}x{n} F@v strided"] = np.asfortranarray(a) @ _rand(rng, (2 * k,), dtype)[::2]
            out[f"{t} {m}x{k}x{n} sliced"] = a[:, ::2] @ b[::2]
        x, y = _rand(rng, (1000,), dtype), _rand(rng, (1000,), dtype)
        out[f"{t} dot"] = np.dot(x, y)
        out[f"{t} vdot"] = np.vdot(x, y)
        out[f"{t} strided dot"] = np.dot(x[::3], y[::3])
        out[f"{t} inner"] = np.inner(_rand(rng, (4, 50), dtype), _rand(rng, (6, 50), dtype))
        out[f"{t} batched"] = _rand(rng, (3, 20, 30), dtype) @ _rand(rng, (3, 30, 10), dtype)
        out[f"{t} scalar dot"] = np.dot(np.asarray(_rand(rng, (), dtype)), _rand(rng, (5, 7), dtype))
        out[f"{t} tensordot"] = np.tensordot(_rand(rng, (4, 5, 6), dtype), _rand(rng, (5, 6, 3), dtype), 2)
        a, b = _rand(rng, (20, 30), dtype), _rand(rng, (30, 10), dtype)
        a[3, 4], b[5, 6] = np.nan, np.inf
        with np.errstate(invalid="ignore"):  # inf * 0
            out[f"{t} nan inf"] = a @ b
        into = np.full((20, 10), np.nan, dtype)
        np.matmul(_rand(rng, (20, 30), dtype), _rand(rng, (30, 10), dtype), out=into)
        out[f"{t} out= NaN-filled"] = into
        out[f"{t} empty k"] = np.ones((3, 0), dtype) @ np.ones((0, 4), dtype)
    return out
'''

CHILD = '''
import sys
import numpy as np
assert np.__file__.startswith(sys.argv[1]), np.__file__
exec(open(sys.argv[2]).read())
np.savez(sys.argv[3], **products())
'''


@pytest.fixture(scope="module")
def shimmed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding copies of NumPy and numpy.libs, with the shim in place of OpenBLAS."""
    root = tmp_path_factory.mktemp("site")
    shutil.copytree(NUMPY_PACKAGE, root / "numpy", ignore=shutil.ignore_patterns("tests", "__pycache__"))
    shutil.copytree(NUMPY_LIBS, root / "numpy.libs")
    assert replace_openblas(root, elf_files_under(root)) > 28_000_000  # OpenBLAS 25.4 MB, libgfortran 2.8
    return root


def _run(shimmed: Path, *args: str, extra_path: str = "") -> subprocess.CompletedProcess[str]:
    path = str(shimmed) + (f":{extra_path}" if extra_path else "")
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=shimmed,
                          env={"PYTHONPATH": path, "OPENBLAS_NUM_THREADS": "1"}, timeout=600)


def test_shim_is_small_defines_what_numpy_imports_and_the_fortran_runtime_is_gone(shimmed: Path) -> None:
    shim = next((shimmed / "numpy.libs").glob(f"{OPENBLAS_PREFIX}*"))
    original = next(NUMPY_LIBS.glob(f"{OPENBLAS_PREFIX}*"))
    assert shim.name == original.name and shim.stat().st_size < 200_000
    users = [p for p in elf_files_under(shimmed / "numpy") if original.name in elf_needed(str(p))]
    imported = set().union(*(symbols(p, "--undefined-only") for p in users)) & symbols(original, "--defined-only")
    assert len(imported) >= 57  # 22 CBLAS functions (matmul), 35 for numpy.linalg
    assert imported <= symbols(shim, "--defined-only")
    assert not [p.name for p in (shimmed / "numpy.libs").iterdir() if p.name.startswith(FORTRAN_RUNTIME)]


def test_the_apps_one_thread_request_finds_the_shim(shimmed: Path) -> None:
    """app/engine/runtime/blas_threads.py sets OpenBLAS to one thread by name; the shim answers it (and
    always runs on the caller's thread)."""
    script = ("import ctypes, sys\n"
              "from app.engine.runtime.blas_threads import _openblas_libraries, limit_numpy_blas_threads\n"
              "assert str(_openblas_libraries()[0]).startswith(sys.argv[1])\n"
              "assert limit_numpy_blas_threads(1)\n"
              "print(ctypes.CDLL(str(_openblas_libraries()[0])).scipy_openblas_get_num_threads64_())\n")
    result = _run(shimmed, "-c", script, str(shimmed), extra_path=str(REPO_ROOT))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "1"


def test_products_are_those_of_the_real_openblas(shimmed: Path, tmp_path: Path) -> None:
    script = tmp_path / "products.py"
    script.write_text(PRODUCTS, encoding="utf-8")
    result = _run(shimmed, "-c", CHILD, str(shimmed), str(script), str(tmp_path / "shim.npz"))
    assert result.returncode == 0, result.stderr
    scope: dict[str, object] = {}
    exec(PRODUCTS, scope)
    expected: dict[str, np.ndarray] = scope["products"]()  # type: ignore[operator]
    with np.load(tmp_path / "shim.npz") as got:
        assert sorted(got.files) == sorted(expected)
        for name, want in expected.items():
            # rounding differs in the order of the sums: a few eps per term of the longest (600)
            tolerance = 8 * 600 * np.finfo(want.dtype).eps
            assert got[name].dtype == want.dtype and got[name].shape == want.shape, name
            np.testing.assert_allclose(got[name], want, rtol=tolerance, atol=tolerance, err_msg=name)


def _wav_samples(path: Path) -> np.ndarray:
    with wave.open(str(path)) as wav:
        return np.frombuffer(wav.readframes(wav.getnframes()), dtype=np.int16).astype(np.float32) / 32768


def test_the_apps_log_mel_features_are_unchanged(shimmed: Path, tmp_path: Path) -> None:
    from app.engine.runtime.features import log_mel

    clip = DATA_DIR / "espeak_meeting.wav"
    script = ("import sys, wave, numpy as np\n"
              "assert np.__file__.startswith(sys.argv[1])\n"
              "from app.engine.runtime.features import log_mel\n"
              "with wave.open(sys.argv[2]) as w:\n"
              "    audio = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16).astype(np.float32) / 32768\n"
              "np.save(sys.argv[3], log_mel(audio))\n")
    result = _run(shimmed, "-c", script, str(shimmed), str(clip), str(tmp_path / "mel.npy"), extra_path=str(REPO_ROOT))
    assert result.returncode == 0, result.stderr
    np.testing.assert_allclose(np.load(tmp_path / "mel.npy"), log_mel(_wav_samples(clip)), atol=2e-6)


def test_numpy_linalg_fails_with_a_clear_message(shimmed: Path) -> None:
    script = ("import numpy as np\n"
              "try:\n"
              "    np.linalg.solve(np.eye(3), np.ones(3))\n"
              "except np.linalg.LinAlgError:\n"
              "    print('LinAlgError')\n")
    result = _run(shimmed, "-c", script)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "LinAlgError"
    assert "numpy.linalg is not in this build (LAPACK dgesv was called" in result.stderr

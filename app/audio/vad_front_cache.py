"""The batched Silero front, built once per machine: a cache entry in the user's cache folder.

Building the front needs `onnx` (~0.6 s CPU to import, mostly ml_dtypes) plus ~0.1 s of matrix
work, in every process that scores a file; loading the built front needs only numpy and
onnxruntime. An entry is one `.npz` (a zip with a CRC per array): the serialized front model as
uint8 bytes plus the LSTM's and the decoder's weights, named by the sha256 of the installed
`silero_vad.onnx` and `FORMAT`, so another Silero or another layout is another entry.

An entry is only an optimisation: whatever is wrong with it (damaged, truncated, empty, a folder,
unreadable, a folder that refuses writes, a full disk) costs one logged warning and a build in
memory, never the transcription.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnxruntime as ort
from numpy.typing import NDArray

from app import user_dirs
from app.private_files import FILE_MODE, private_dir, tighten

FORMAT = 1  # raise when the front's graph or the arrays change meaning
_HIDDEN = 128
_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Front:
    """What the batched scorer needs besides numpy: `model`, the serialized front (an ONNX
    model [n, 576] float32 -> [n, 512] float32 gates); `w_hh` [128, 512] float32, the LSTM's
    recurrent weights (gate columns i, f, o, g); `out_w` [128] float32 and `out_b` [1] float32,
    the decoder's 1x1 Conv1d."""

    model: bytes
    w_hh: NDArray[np.float32]
    out_w: NDArray[np.float32]
    out_b: NDArray[np.float32]


def front_session(model: bytes) -> ort.InferenceSession:
    """An onnxruntime session of a serialized front, on one thread (the frames are its batch)."""
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    return ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])


def load_front(
    model_path: Path, build: Callable[[bytes], Front], cache_dir: Path | None = None
) -> tuple[ort.InferenceSession, Front]:
    """(session, front) of the Silero model at `model_path`: from its cache entry, else `build`
    (called with the model file's bytes) and saved for the next process."""
    source = model_path.read_bytes()
    digest = hashlib.sha256(source).hexdigest()[:16]
    entry = (cache_dir or user_dirs.cache_dir()) / "vad" / f"silero-front-{digest}-v{FORMAT}.npz"
    try:
        front = _read(entry)
        return front_session(front.model), front
    except FileNotFoundError:
        pass  # the first process on this machine (or after the cache was cleared)
    except Exception:  # any damage means a rebuild, never a failed transcription
        _log.warning("the speech detector's cached front %s is unusable; rebuilding it", entry, exc_info=True)
    front = build(source)
    session = front_session(front.model)
    try:
        _write(entry, front)
    except Exception:  # the entry only saves time: a full disk or a read-only folder costs a build
        _log.warning("could not save the speech detector's front to %s", entry, exc_info=True)
    return session, front


def _read(entry: Path) -> Front:
    """The entry's front; raises on anything missing, damaged (zip CRC) or of the wrong shape."""
    # np.load leaves a file it opened itself open when the zip inside is damaged
    with entry.open("rb") as handle:
        arrays = np.load(handle, allow_pickle=False)
        if not isinstance(arrays, np.lib.npyio.NpzFile):
            raise ValueError(f"not an .npz: {type(arrays).__name__}")
        with arrays:
            model, w_hh, out_w, out_b = (arrays[k] for k in ("model", "w_hh", "out_w", "out_b"))
    shapes = {"model": (model, np.uint8, (model.size,)), "w_hh": (w_hh, np.float32, (_HIDDEN, 4 * _HIDDEN)),
              "out_w": (out_w, np.float32, (_HIDDEN,)), "out_b": (out_b, np.float32, (1,))}  # fmt: skip
    for name, (array, dtype, shape) in shapes.items():
        if array.dtype != dtype or array.shape != shape or not array.size:
            raise ValueError(f"{name}: {array.dtype} {array.shape}, expected {np.dtype(dtype)} {shape}")
    return Front(model.tobytes(), np.ascontiguousarray(w_hh), out_w, out_b)


def _write(entry: Path, front: Front) -> None:
    """Save `front` as `entry`, atomically (a private temporary in the same folder, then
    os.replace), so a reader sees the old entry, none, or the whole new one."""
    private_dir(entry.parent)
    if entry.is_dir() and not entry.is_symlink():
        shutil.rmtree(entry)  # a folder in the entry's place: os.replace cannot replace it
    tmp = entry.with_name(f".{entry.name}.{os.getpid()}.tmp")
    try:
        with os.fdopen(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE), "wb") as handle:
            model = np.frombuffer(front.model, dtype=np.uint8)
            np.savez(handle, model=model, w_hh=front.w_hh, out_w=front.out_w, out_b=front.out_b)
        tighten(tmp)  # os.open's mode is masked by the umask
        os.replace(tmp, entry)
    finally:
        tmp.unlink(missing_ok=True)

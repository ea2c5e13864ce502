"""Give the C heap's free memory back to the operating system after each window.

glibc keeps freed blocks in its heap for reuse and returns them to the system only from the top of
the heap. Every window frees onnxruntime's per-run buffers and numpy's mel and logits arrays, and
the blocks left in between pile up: over a long dictation session RSS keeps growing, and the
process holds tens of MB more than it uses. `malloc_trim(0)` after each window hands the free
pages back, so RSS stays flat, at a cost that is small next to a window's decode
(bench/engine_memory.py measures both).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import sys
from collections.abc import Callable


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's malloc_trim, or None elsewhere (macOS, Windows and musl return memory by themselves
    or have no such call)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None
    trim = getattr(libc, "malloc_trim", None)
    if trim is None:
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim  # type: ignore[no-any-return]


def release_free_heap() -> bool:
    """Return free heap pages to the system; True if the platform offers the call."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True

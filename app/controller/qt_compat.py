"""A guard against PySide6 6.12's reference-count bug on Python 3.11.

PySide6/shiboken6 6.12.0 returns `None` from void methods (`setText`, `setPen`, ...) without
taking a reference. On Python >= 3.12 `None` is immortal, so nothing happens; on 3.11 every
such call lowers None's count, and after a few thousand calls (seconds of a live level meter)
the interpreter aborts with "none_dealloc: deallocating None" (the app died within seconds of
dictation). Measured here: 1000 calls of `QObject.setObjectName` lower `sys.getrefcount(None)` by
exactly 1000 on 6.12.0, by 0 on 6.11.3. A "bool_dealloc" abort (True/False) was seen as well.

The fix belongs in the dependency pin (`PySide6-Essentials<6.12` on Python 3.11); until then
this gives None, True and False the immortality Python 3.12 gives them, only on the affected
combination.
"""

from __future__ import annotations

import ctypes
import sys

_IMMORTAL_BOOST = 1 << 40
_applied = False


def affected(pyside_version: str, python: tuple[int, int] = sys.version_info[:2]) -> bool:
    return python < (3, 12) and pyside_version.startswith("6.12.")


def guard_none_refcount() -> bool:
    """Apply the guard once if this PySide6/Python pair is affected; True if applied."""
    global _applied
    import PySide6

    if _applied or not affected(PySide6.__version__):
        return _applied
    for singleton in (None, True, False):
        ctypes.c_ssize_t.from_address(id(singleton)).value += _IMMORTAL_BOOST
    _applied = True
    return True

"""Folders and files that only the user can read: the history, recordings, journals, logs, caches.

Created 0700 (folders) and 0600 (files) on POSIX, whatever the umask; an existing folder or file
of ours that is more open is tightened. On Windows the per-user profile folders are already
private, and POSIX modes mean little there, so these only create.
This module is the bottom layer: any package may import it; it imports nothing of the app.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

DIR_MODE = 0o700
FILE_MODE = 0o600


def private_dir(path: str | os.PathLike[str]) -> Path:
    """Create `path` (and missing parents) as 0700 folders; tighten it if it exists and is ours."""
    folder = Path(path)
    missing = [p for p in (folder, *folder.parents) if not p.exists()]
    folder.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
    for created in missing:  # mkdir's mode is masked by the umask, and parents get the default
        _chmod_if_ours(created, DIR_MODE)
    _chmod_if_ours(folder, DIR_MODE)
    return folder


def private_file(path: str | os.PathLike[str]) -> Path:
    """Make sure `path` exists as a 0600 file (created empty if missing) in a private folder."""
    file = Path(path)
    private_dir(file.parent)
    fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_APPEND, FILE_MODE)
    os.close(fd)
    _chmod_if_ours(file, FILE_MODE)
    return file


def tighten(path: str | os.PathLike[str]) -> None:
    """Make an existing file 0600 (or folder 0700) if it is ours; missing paths are ignored."""
    target = Path(path)
    if target.exists():
        _chmod_if_ours(target, DIR_MODE if target.is_dir() else FILE_MODE)


def tighten_tree(path: str | os.PathLike[str]) -> None:
    """`tighten` a folder and everything under it (e.g. graphs a library wrote with umask modes)."""
    root = Path(path)
    tighten(root)
    for folder, dirs, files in os.walk(root):
        for name in (*dirs, *files):
            tighten(Path(folder) / name)


def _chmod_if_ours(path: Path, mode: int) -> None:
    if os.name != "posix":
        return
    info = path.lstat()
    if info.st_uid == os.getuid() and stat.S_IMODE(info.st_mode) != mode and not stat.S_ISLNK(info.st_mode):
        os.chmod(path, mode)


def try_lock(fd: int) -> bool:
    """An exclusive, non-blocking lock on the open file `fd` (held while it stays open): False when
    another process holds it; True where file locks do not exist (Windows: one Earshot runs at a time)."""
    try:
        import fcntl
    except ImportError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True

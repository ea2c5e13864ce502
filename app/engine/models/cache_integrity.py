"""The `complete.json` marker of a converted-model entry, and checking an entry against it.

The marker lists every file of the entry with its size in bytes, its sha256 (hex) and its
modification time (ns) when the entry was written:
`{"version": 2, "files": {"decoder.onnx": {"size": 123, "sha256": "ab..", "mtime_ns": 1}}}`.
Size-only markers (`{"decoder.onnx": 123, ...}`, the format without hashes) are read too: their
entries are checked by size only.

Hashing a whole entry costs a sizeable share of loading its graphs, on every start. So sizes and
mtimes are compared on every load (a `stat` per file, next to nothing), and a file is hashed only
when it may have changed: its mtime differs from the marker's (anything that rewrote it, even
at the same size), or the caller asks (`full=True`, after the entry failed to load, which catches
damage whose time was put back).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

COMPLETE = "complete.json"
MARKER_VERSION = 2

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FileRecord:
    """What the marker says of one file: size in bytes, sha256 hex (None in old markers), mtime."""

    size: int
    sha256: str | None = None
    mtime_ns: int | None = None


def write_marker(folder: Path, required: Iterable[str]) -> None:
    """Hash every file in `folder` and write its marker; raises FileNotFoundError naming a
    `required` file the folder lacks."""
    files = sorted(p for p in folder.iterdir() if p.is_file() and p.name != COMPLETE)
    names = {p.name for p in files}
    for name in required:
        if name not in names:
            raise FileNotFoundError(f"conversion did not produce {name}")
    records = {}
    for path in files:
        info = path.stat()
        records[path.name] = {"size": info.st_size, "sha256": file_sha256(path), "mtime_ns": info.st_mtime_ns}
    (folder / COMPLETE).write_text(json.dumps({"version": MARKER_VERSION, "files": records}), encoding="utf-8")


def read_marker(folder: Path) -> dict[str, FileRecord] | None:
    """The marker's records by file name, or None when there is no readable marker."""
    try:
        loaded = json.loads((folder / COMPLETE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(loaded, dict):
        return None
    if loaded.get("version") == MARKER_VERSION and isinstance(loaded.get("files"), dict):
        return _records(loaded["files"])
    if all(isinstance(size, int) for size in loaded.values()):  # the size-only marker
        return {name: FileRecord(size) for name, size in loaded.items()}
    return None


def _records(files: dict[str, object]) -> dict[str, FileRecord] | None:
    records = {}
    for name, item in files.items():
        if not isinstance(item, dict) or not isinstance(item.get("size"), int):
            return None
        sha, mtime = item.get("sha256"), item.get("mtime_ns")
        records[name] = FileRecord(
            item["size"], sha if isinstance(sha, str) else None, mtime if isinstance(mtime, int) else None
        )
    return records


def is_complete(folder: Path) -> bool:
    """A marker is there and every file it lists exists at its size (cheap: no reading)."""
    records = read_marker(folder)
    if records is None:
        return False
    for name, record in records.items():
        try:
            if (folder / name).stat().st_size != record.size:
                return False
        except OSError:
            return False
    return True


def damaged_files(folder: Path, full: bool = False) -> list[str]:
    """Names of the entry's files whose content no longer matches the marker's sha256.

    Only files whose mtime changed since the marker was written are hashed, unless `full`; when
    they all still match, their new mtimes are recorded. Files listed without a hash (old
    markers) cannot be checked and are not reported.
    """
    records = read_marker(folder) or {}
    damaged, rehashed = [], False
    for name, record in records.items():
        path = folder / name
        if record.sha256 is None:
            continue
        try:
            if full or path.stat().st_mtime_ns != record.mtime_ns:
                rehashed = True
                if file_sha256(path) != record.sha256:
                    damaged.append(name)
        except OSError:
            _log.exception("cannot check %s", path)
            damaged.append(name)
    if rehashed and not damaged:
        remember_checked_times(folder)
    return damaged


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 22):
            digest.update(chunk)
    return digest.hexdigest()


def remember_checked_times(folder: Path) -> None:
    """After a full check passed, record the files' current mtimes (a copy of the cache, made
    without keeping times, is then hashed once rather than on every load). Read-only entries
    are left as they are."""
    records = read_marker(folder)
    if records is None or not os.access(folder, os.W_OK):
        return
    files = {
        name: {"size": r.size, "sha256": r.sha256, "mtime_ns": (folder / name).stat().st_mtime_ns}
        for name, r in records.items()
        if r.sha256 is not None
    }
    if len(files) != len(records):
        return
    tmp = folder / f".{COMPLETE}.{os.getpid()}.tmp"
    try:
        tmp.write_text(json.dumps({"version": MARKER_VERSION, "files": files}), encoding="utf-8")
        os.replace(tmp, folder / COMPLETE)
    except OSError:
        _log.exception("cannot update %s", folder / COMPLETE)
        tmp.unlink(missing_ok=True)

"""The manifest: what an archive run has finished, kept in the output folder.

`<output dir>/earshot-manifest.jsonl`, one JSON object per line, one line per finished input:

    {"stem": "a/b/x", "source": "/in/a/b/x.wav", "sha256": "...", "size": 123, "mtime_ns": ...,
     "settings": {"model": "tiny.en", "precision": "int8", "options": {...}, "formats": ["txt"]},
     "outputs": ["a/b/x.txt"], "duration_s": 5.2}

`outputs` are the transcript files written, relative to the output folder: `<stem>.<format>`,
or a shortened name where that would pass the folder's limit (app/engine/export/file_names.py;
the same name on every run). A line is appended (one `write`, then fsync) only after all of that input's transcripts are
written, so a run killed at any point (kill -9 included) leaves a manifest that names only
finished work. A line that cannot be read (torn by a kill, bytes damaged on disk, edited by
hand) is skipped, its input is simply transcribed again, and the run says so in one warning; a good
record glued behind damaged bytes is still found. Loading compacts the file when it holds
superseded or damaged lines: the new text goes to a temporary file that then replaces the old one
(rename), so readers see the old or the new manifest, never a mix. The last line for a stem wins.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.private_files import try_lock

MANIFEST_NAME = "earshot-manifest.jsonl"
LOCK_NAME = ".earshot-run.lock"
_HASH_BLOCK = 1 << 20

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FileIdentity:
    """An input's content: its SHA-256 (hex), size (bytes) and modification time (ns)."""

    sha256: str
    size: int
    mtime_ns: int


def content_hash(path: Path) -> str:
    """SHA-256 of the file's bytes, hex; read in 1 MiB blocks (flat memory)."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(_HASH_BLOCK):
            digest.update(block)
    return digest.hexdigest()


class ManifestError(OSError):
    """The manifest exists but cannot be read (a folder, no permission); `str(error)` is one line."""


@dataclass(frozen=True)
class _Parsed:
    """A manifest's bytes read line by line: the good records in file order, and how many lines
    (not blank) held no readable record."""

    records: list[dict[str, Any]]
    damaged: int
    lines: int


def _parse(data: bytes) -> _Parsed:
    records, damaged, lines = [], 0, 0
    for raw in data.split(b"\n"):
        if not raw.strip():
            continue
        lines += 1
        record = _record_in(raw)
        if record is None:
            damaged += 1
        else:
            records.append(record)
    return _Parsed(records, damaged, lines)


def _record_in(raw: bytes) -> dict[str, Any] | None:
    """The record a line holds, or the one at its end after damaged bytes (each record is one
    `write`, so a whole object reaching the line's end is a whole record); None if there is none."""
    start = 0
    while (start := raw.find(b'{"', start)) >= 0:
        try:
            record = json.loads(raw[start:].decode("utf-8"))
        except ValueError:  # UnicodeDecodeError is a ValueError too
            start += 1
            continue
        if _well_formed(record):
            return dict(record)
        start += 1
    return None


def _well_formed(record: object) -> bool:
    """A record the manifest's readers can use without checking types again."""
    if not isinstance(record, dict):
        return False
    outputs = record.get("outputs")
    return (
        isinstance(record.get("stem"), str)
        and isinstance(record.get("sha256"), str)
        and isinstance(record.get("settings"), dict)
        and isinstance(outputs, list)
        and all(isinstance(name, str) for name in outputs)
        and all(isinstance(record.get(key), int) for key in ("size", "mtime_ns"))
    )


class OutputFolderBusy(ManifestError):
    """Another run holds the output folder; `str(error)` is one line."""


class RunLock:
    """One archive run at a time per output folder: an exclusive lock on `.earshot-run.lock`
    there, held while the run lasts and let go by the system however the run ends (kill -9 too).
    Two runs writing one folder would transcribe every file twice, and one's compaction of the
    manifest could drop a line the other had just added."""

    def __init__(self, output_dir: Path) -> None:
        self.path = output_dir / LOCK_NAME
        self._fd: int | None = None

    def acquire(self) -> None:
        """Hold the lock; `OutputFolderBusy` when another run holds it. A folder where no lock
        file can be made (read-only) is run without one: nothing can be written there anyway,
        and each transcript then says where it was kept instead."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError:
            log.warning("no run lock in %s", self.path.parent, exc_info=True)
            return
        if not try_lock(fd):
            os.close(fd)
            raise OutputFolderBusy(
                f"another earshot run is writing to {self.path.parent}: wait for it to end, "
                "or give another --output-dir"
            )
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


class Manifest:
    """The finished inputs of one output folder, by stem."""

    def __init__(self, output_dir: Path) -> None:
        self.path = output_dir / MANIFEST_NAME
        self.records: dict[str, dict[str, Any]] = {}
        self._load()

    def identity(self, path: Path, stem: str) -> FileIdentity:
        """The input's identity; the hash is reused from the record when size and mtime match
        (as rsync does: a second run over a large archive reads no audio it has seen)."""
        stat = path.stat()
        record = self.records.get(stem)
        if record and record.get("size") == stat.st_size and record.get("mtime_ns") == stat.st_mtime_ns:
            return FileIdentity(str(record["sha256"]), stat.st_size, stat.st_mtime_ns)
        return FileIdentity(content_hash(path), stat.st_size, stat.st_mtime_ns)

    def is_done(self, stem: str, identity: FileIdentity, settings: dict[str, Any]) -> bool:
        """True when `stem` was finished from the same content with the same settings and its
        transcripts are all still there."""
        record = self.records.get(stem)
        if record is None or record.get("sha256") != identity.sha256 or record.get("settings") != settings:
            return False
        return all((self.path.parent / name).is_file() for name in record.get("outputs", []))

    def add(self, record: dict[str, Any]) -> None:
        """Append one finished input's line (durably: fsync before returning)."""
        line = json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o666)
        try:
            os.write(fd, line.encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)
        self.records[str(record["stem"])] = record

    def _load(self) -> None:
        if self.path.exists() and not self.path.is_file():  # a folder; a FIFO or a device never ends
            raise ManifestError(f"{self.path}: cannot read the manifest (not a regular file)")
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return
        except OSError as exc:
            log.warning("cannot read the manifest %s", self.path, exc_info=True)
            raise ManifestError(f"{self.path}: cannot read the manifest ({exc.strerror or exc})") from exc
        parsed = _parse(data)
        for record in parsed.records:
            self.records[record["stem"]] = record
        if parsed.damaged:
            log.warning(
                "manifest %s: %d damaged line(s) skipped; the inputs they recorded are transcribed again",
                self.path,
                parsed.damaged,
            )
        if parsed.lines != len(self.records) or (data and not data.endswith(b"\n")):
            self._compact()

    def _compact(self) -> None:
        """Rewrite the manifest with one line per stem (temporary file + rename)."""
        text = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in self.records.values())
        temporary = self.path.with_name(f".{MANIFEST_NAME}.{secrets.token_hex(4)}.tmp")
        try:
            with temporary.open("w", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temporary, self.path)
        except OSError:
            log.warning("manifest %s not compacted", self.path, exc_info=True)
            temporary.unlink(missing_ok=True)

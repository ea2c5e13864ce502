"""The manifest: what an archive run has finished, kept in the output folder.

`<output dir>/earshot-manifest.jsonl`, one JSON object per line, one line per finished input:

    {"stem": "a/b/x", "source": "/in/a/b/x.wav", "sha256": "...", "size": 123, "mtime_ns": ...,
     "settings": {"model": "tiny.en", "precision": "int8", "options": {...}, "formats": ["txt"]},
     "outputs": ["a/b/x.txt"], "duration_s": 5.2}

A line is appended (one `write`, then fsync) only after all of that input's transcripts are
written, so a run killed at any point (kill -9 included) leaves a manifest that names only
finished work; a torn last line is ignored. Loading compacts the file when it holds superseded
or torn lines: the new text goes to a temporary file that then replaces the old one (rename),
so readers see the old or the new manifest, never a mix. The last line for a stem wins.
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

MANIFEST_NAME = "earshot-manifest.jsonl"
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
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return
        for number, line in enumerate(lines, 1):
            try:
                record = json.loads(line)
                self.records[str(record["stem"])] = record
            except (ValueError, KeyError, TypeError):  # a line torn by a kill, or edited by hand
                log.warning("manifest %s line %d ignored: %r", self.path, number, line[:80])
        if len(lines) != len(self.records):
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

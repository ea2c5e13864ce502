"""An append-only journal of history writes that could not be stored yet (database locked).

One JSON object per line, written and fsync'ed before the write is queued, so a write the
database refused survives a crash or a kill; `HistoryStore` replays it on the next start and
deletes the file once every write in it is stored. The file is private (0600 in a 0700 folder).
Each store writes its own `<db>.journal-<id>` and holds an exclusive `flock` on it while it lives,
so a store that opens later adopts only the journals of stores that are gone (killed, crashed).
"""

from __future__ import annotations

import json
import logging
import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.private_files import FILE_MODE, private_dir, try_lock

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PendingWrite:
    """One history write: `op` is create / append / take_back / set_text / set_segments / delete / delete_if_empty;
    `args` its values (ids, texts, times in seconds since the epoch); `uid` names it so a
    replay applies it exactly once."""

    op: str
    args: dict[str, Any]
    uid: str = field(default_factory=lambda: uuid.uuid4().hex)


class WriteJournal:
    """One journal file next to the database; created (and locked) on the first `append`."""

    def __init__(self, path: Path, fd: int | None = None) -> None:
        self.path = path
        self._fd = fd

    @classmethod
    def new_for(cls, db: Path) -> WriteJournal:
        return cls(db.with_name(f"{db.name}.journal-{uuid.uuid4().hex[:12]}"))

    @classmethod
    def orphans_of(cls, db: Path) -> Iterator[WriteJournal]:
        """The journals of `db` no living store holds (each is returned locked, now ours)."""
        for path in sorted(db.parent.glob(f"{db.name}.journal-*")):
            try:
                fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK)
            except OSError:  # a folder of that name, a file we may not open: not a journal of ours
                log.warning("Passing over %s: not a history journal that can be opened", path, exc_info=True)
                continue
            if try_lock(fd):
                yield cls(path, fd)
            else:
                os.close(fd)

    def append(self, write: PendingWrite) -> None:
        """Add one write and make it durable (fsync) before returning. Raises OSError."""
        if self._fd is None:
            private_dir(self.path.parent)
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, FILE_MODE)
            try_lock(self._fd)
        line = json.dumps({"uid": write.uid, "op": write.op, "args": write.args}, ensure_ascii=False) + "\n"
        os.write(self._fd, line.encode("utf-8"))
        os.fsync(self._fd)

    def read(self) -> list[PendingWrite]:
        """Every complete write in the file (a line torn by a kill is skipped)."""
        try:
            lines = self.path.read_text(encoding="utf-8", errors="replace").splitlines()
        except FileNotFoundError:
            return []
        writes = []
        for number, line in enumerate(lines, 1):
            try:
                record = json.loads(line)
                writes.append(PendingWrite(str(record["op"]), dict(record["args"]), str(record["uid"])))
            except (ValueError, KeyError, TypeError):
                log.exception("Skipping unreadable line %d of the history journal %s", number, self.path)
        return writes

    def clear(self) -> None:
        """Delete the journal: everything in it is stored."""
        self.path.unlink(missing_ok=True)
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

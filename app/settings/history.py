"""The transcript history: one SQLite file in platformdirs' user data dir.

Dictations grow entry by entry as text is committed (`append`), so killing the app loses
nothing committed. Safe to call from any thread (one connection behind a lock; WAL journal).

Nothing is lost when another process locks the database: a write that finds it locked (after
`BUSY_TIMEOUT_MS`, so no caller blocks for long) goes into memory and into an fsync'ed journal
(`app.settings.write_journal`), and a writer thread stores the queue, in order, once the lock is
gone; a journal left by a crash is replayed (exactly once) on the next start. A database that
cannot be read is kept as `history.sqlite3.corrupt-<time>` and a new one is started; `notice`
then says so. The database, its -wal/-shm and the journal are 0600 in a 0700 folder.
"""

from __future__ import annotations

import collections
import enum
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

from app.private_files import private_dir, private_file, tighten
from app.settings.write_journal import PendingWrite, WriteJournal

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 100
"""How long one write waits for another process's lock before it is queued instead."""
RETRY_S = (0.1, 0.25, 0.5, 1.0)
"""Pauses between the writer thread's tries while the database stays locked (the last repeats)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    title TEXT NOT NULL,
    source TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL,
    updated REAL NOT NULL,
    text TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS entries_updated ON entries(updated);
CREATE TABLE IF NOT EXISTS applied_journal (uid TEXT PRIMARY KEY);
"""
_CORRUPT = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)
_SQL = {
    "create": "INSERT INTO entries(id, kind, title, source, created, updated, text)"
    " VALUES (:id, :kind, :title, :source, :at, :at, :text)",
    "append": "UPDATE entries SET text = text || :text, updated = :at WHERE id = :id",
    "set_text": "UPDATE entries SET text = :text, updated = :at WHERE id = :id",
    "delete": "DELETE FROM entries WHERE id = :id",
    "delete_if_empty": "DELETE FROM entries WHERE id = :id AND trim(text) = ''",
}


class EntryKind(enum.Enum):
    DICTATION = "dictation"
    FILE = "file"


@dataclass(frozen=True)
class HistoryEntry:
    """One transcript. Times are seconds since the epoch."""

    id: int
    kind: EntryKind
    title: str
    source: str
    created: float
    updated: float
    text: str


def default_history_path() -> Path:
    return Path(platformdirs.user_data_dir("earshot", appauthor=False)) / "history.sqlite3"


class _Locked(Exception):
    """Another process holds the database's write lock."""


class HistoryStore:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_history_path()
        self.notice: str | None = None
        """A user-facing sentence when the file was unreadable and a new history was started."""
        self.on_stored: Callable[[], None] | None = None
        """Called (from the writer thread) when queued writes reached the database."""
        self.journal = WriteJournal.new_for(self.path)
        self._adopted: list[WriteJournal] = []  # journals of stores that died before storing them
        self._lock = threading.RLock()
        self._pending: collections.deque[PendingWrite] = collections.deque()
        self._renamed: dict[int, int] = {}  # id handed out -> id stored (another writer took it)
        self._wake = threading.Event()
        self._closed = False
        self._db = self._open()
        self._next_id = self._last_id() + 1
        for orphan in WriteJournal.orphans_of(self.path):  # a crash left writes never stored
            self._adopted.append(orphan)
            self._pending.extend(orphan.read())
        self._writer = threading.Thread(target=self._write_queued, name="earshot-history", daemon=True)
        self._writer.start()
        if self._pending:
            self._wake.set()

    # --- opening ---------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        private_dir(self.path.parent)
        try:
            return self._connect()
        except sqlite3.DatabaseError as exc:
            if exc.sqlite_errorcode & 0xFF not in _CORRUPT:
                raise
            log.exception("The history database %s is unreadable; starting a new one", self.path)
        backup = self._keep_corrupt_file()
        self.notice = (f"The history could not be read (the file is damaged). It was kept as {backup.name} "
                       "and a new, empty history was started.")
        return self._connect()

    def _connect(self) -> sqlite3.Connection:
        if self.path.exists():  # never open it ourselves: closing an fd drops SQLite's POSIX locks
            tighten(self.path)
        else:
            private_file(self.path)  # 0600 before SQLite creates it; the -wal/-shm copy its mode
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            checked = db.execute("PRAGMA quick_check").fetchone()
            if checked is None or checked[0] != "ok":
                raise _corrupt_error(f"quick_check: {checked}")
            db.executescript(_SCHEMA)
        except BaseException:
            db.close()
            raise
        for suffix in ("-wal", "-shm"):
            tighten(self.path.with_name(self.path.name + suffix))
        return db

    def _keep_corrupt_file(self) -> Path:
        backup = self.path.with_name(f"{self.path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
        for suffix in ("", "-wal", "-shm"):
            part = self.path.with_name(self.path.name + suffix)
            if part.exists():
                part.replace(backup.with_name(backup.name + suffix))
                tighten(backup.with_name(backup.name + suffix))
        return backup

    def _last_id(self) -> int:
        row = self._db.execute(
            "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'entries'), 0),"
            " coalesce((SELECT max(id) FROM entries), 0))"
        ).fetchone()
        return int(row[0])

    # --- writes ------------------------------------------------------------------------

    def create(self, kind: EntryKind, title: str, source: str = "", text: str = "") -> int:
        with self._lock:
            entry_id, self._next_id = self._next_id, self._next_id + 1
            self._write("create", id=entry_id, kind=kind.value, title=title, source=source, text=text)
        return entry_id

    def append(self, entry_id: int, text: str) -> None:
        """Add committed text to the end of an entry (stored at once, or queued and journaled)."""
        self._write("append", id=entry_id, text=text)

    def set_text(self, entry_id: int, text: str) -> None:
        self._write("set_text", id=entry_id, text=text)

    def delete(self, entry_id: int) -> None:
        self._write("delete", id=entry_id)

    def delete_if_empty(self, entry_id: int) -> None:
        self._write("delete_if_empty", id=entry_id)

    @property
    def pending(self) -> int:
        """Writes waiting for the database (it was locked)."""
        return len(self._pending)

    def flush(self, timeout_s: float) -> bool:
        """Wait up to `timeout_s` for queued writes to be stored; True when none is left."""
        deadline = time.monotonic() + timeout_s
        while self._pending and time.monotonic() < deadline:
            self._wake.set()
            time.sleep(0.02)
        return not self._pending

    def close(self, timeout_s: float = 1.0) -> None:
        """Store what is queued (a journal keeps what could not be), then close."""
        self.flush(timeout_s)
        self._closed = True
        self._wake.set()
        self._writer.join(timeout_s + 1.0)
        with self._lock:
            self._db.close()

    def _write(self, op: str, **args: Any) -> None:
        args.setdefault("at", time.time())
        with self._lock:
            if not self._pending:
                try:
                    self._apply(PendingWrite(op, args), journaled=False)
                    return
                except _Locked:
                    log.warning("The history database is locked by another process; queuing writes")
            write = PendingWrite(op, args)
            self.journal.append(write)  # durable before we return: the caller may be killed next
            self._pending.append(write)
        self._wake.set()

    def _apply(self, write: PendingWrite, journaled: bool) -> None:
        """One write in one transaction (with its journal mark); raises `_Locked`."""
        args = dict(write.args)
        args["id"] = self._renamed.get(int(args["id"]), int(args["id"]))
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                if journaled and self._db.execute(
                        "SELECT 1 FROM applied_journal WHERE uid = ?", (write.uid,)).fetchone():
                    self._db.execute("COMMIT")
                    return  # stored before a crash, journal not yet deleted: exactly once
                self._execute(write.op, args)
                if journaled:
                    self._db.execute("INSERT INTO applied_journal(uid) VALUES (?)", (write.uid,))
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                raise _Locked from exc
            raise

    def _execute(self, op: str, args: dict[str, Any]) -> None:
        try:
            self._db.execute(_SQL[op], args)
        except sqlite3.IntegrityError:
            if op != "create":
                raise
            wanted = int(args["id"])  # another writer used this id meanwhile: take the next free one
            cursor = self._db.execute(_SQL[op], {**args, "id": None})
            assert cursor.lastrowid is not None
            self._renamed[wanted] = cursor.lastrowid
            log.warning("History entry %d was stored as %d", wanted, cursor.lastrowid)

    def _write_queued(self) -> None:
        """Writer thread: store queued writes in order while the database lets us."""
        tries = 0
        while not self._closed:
            self._wake.wait()
            self._wake.clear()
            while self._pending and not self._closed:
                if self._store_next():
                    tries = 0
                    continue
                time.sleep(RETRY_S[min(tries, len(RETRY_S) - 1)])
                tries += 1

    def _store_next(self) -> bool:
        """Store the oldest queued write; False while the database is locked."""
        with self._lock:
            try:
                self._apply(self._pending[0], journaled=True)
            except _Locked:
                return False
            except sqlite3.Error:
                log.exception("A queued history write failed and is dropped: %s", self._pending[0])
            self._pending.popleft()
            done = not self._pending
            if done:
                for journal in (self.journal, *self._adopted):
                    journal.clear()
                self._adopted.clear()
                self._forget_applied()
        if done and self.on_stored is not None:
            self.on_stored()
        return True

    def _forget_applied(self) -> None:
        try:
            self._db.execute("DELETE FROM applied_journal")
        except sqlite3.OperationalError:  # locked again: the marks are harmless, cleared next time
            log.exception("Could not clear the history journal marks")

    # --- reads -------------------------------------------------------------------------

    def get(self, entry_id: int) -> HistoryEntry | None:
        entry_id = self._renamed.get(entry_id, entry_id)
        with self._lock:
            row = self._db.execute(
                "SELECT id, kind, title, source, created, updated, text FROM entries WHERE id = ?",
                (entry_id,),
            ).fetchone()
        return _entry(row) if row else None

    def search(self, query: str = "", limit: int = 500) -> list[HistoryEntry]:
        """Newest first; `query` matches title or text, case-insensitively."""
        pattern = f"%{query.strip()}%"
        with self._lock:
            rows = self._db.execute(
                "SELECT id, kind, title, source, created, updated, text FROM entries"
                " WHERE (title LIKE ? OR text LIKE ?) ORDER BY updated DESC, id DESC LIMIT ?",
                (pattern, pattern, limit),
            ).fetchall()
        return [_entry(row) for row in rows]


def _entry(row: tuple[int, str, str, str, float, float, str]) -> HistoryEntry:
    return HistoryEntry(row[0], EntryKind(row[1]), row[2], row[3], row[4], row[5], row[6])


def _corrupt_error(message: str) -> sqlite3.DatabaseError:
    error = sqlite3.DatabaseError(message)
    error.sqlite_errorcode = sqlite3.SQLITE_CORRUPT
    return error

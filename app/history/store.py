"""The transcript history: one SQLite file in the user data dir (app/user_dirs.py).

Dictations grow entry by entry as text is committed (`append`), so killing the app loses
nothing committed. Safe to call from any thread (one connection behind a lock; WAL journal).

Nothing is lost when another process locks the database: a write that finds it locked (after
`BUSY_TIMEOUT_MS`, so no caller blocks for long) goes into memory and into an fsync'ed journal
(`app.history.write_journal`), and a writer thread stores the queue, in order, once the lock is
gone; reads show the queued writes on top of what is stored. A journal left by a crash is
replayed (exactly once: `app.history.transaction`) on the next start. A database that cannot be
read is kept as `history.sqlite3.corrupt-<time>` and a new one is started (`app.history.database`);
`notice` then says so. The database, its -wal/-shm and the journal are 0600 in a 0700 folder.

An entry's `title` is the name the user gave it ("" until then: `HistoryEntry.name` is its first
words); `original` is its text as transcribed once the user has edited it ("" until then, and
after a Revert); `segments` are its timed pieces (a file's segments, a dictation's utterances), kept as
JSON `[[start_s, end_s, text], ...]` so an entry can be exported again as SRT/VTT with its times.
"""

from __future__ import annotations

import collections
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.history.database import ensure_schema, last_id, open_database
from app.history.entry import (
    EntryKind,
    HistoryEntry,
    TimedText,
    parse_segments,
    segments_json,
)
from app.history.entry_audio import FOLDER_NAME as AUDIO_FOLDER
from app.history.entry_audio import EntryAudio
from app.history.pending import apply_pending
from app.history.transaction import DatabaseLocked, store_write, stored_args
from app.history.write_journal import PendingWrite, WriteJournal
from app.user_dirs import data_dir

log = logging.getLogger(__name__)

RETRY_S = (0.1, 0.25, 0.5, 1.0)
"""Pauses between the writer thread's tries while the database stays locked (the last repeats)."""


__all__ = ["EntryKind", "HistoryEntry", "HistoryStore", "TimedText"]


def default_history_path() -> Path:
    """<user data dir>/history.sqlite3 ($EARSHOT_DATA_DIR moves it with the other data)."""
    return data_dir() / "history.sqlite3"


class HistoryStore:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_history_path()
        self.notice: str | None = None
        """A user-facing sentence when the file was unreadable and a new history was started."""
        self.on_stored: Callable[[], None] | None = None
        """Called (from the writer thread) when queued writes reached the database."""
        self.audio = EntryAudio(self.path.parent / AUDIO_FOLDER)
        """Dictation audio kept for playback (Settings), deleted with its entry."""
        self.journal = WriteJournal.new_for(self.path)
        self._adopted: list[WriteJournal] = []  # journals of stores that died before storing them
        self._lock = threading.RLock()
        self._pending: collections.deque[PendingWrite] = collections.deque()
        self._renamed: dict[int, int] = {}  # id handed out -> id stored (another writer took it)
        self._wake = threading.Event()
        self._closed = False
        self._db, self.notice = open_database(self.path)
        self._schema_ready = ensure_schema(self._db)
        self._next_id = last_id(self._db) + 1
        for orphan in WriteJournal.orphans_of(self.path):  # a crash left writes never stored
            self._adopted.append(orphan)
            self._pending.extend(orphan.read())
        self._writer = threading.Thread(target=self._write_queued, name="earshot-history", daemon=True)
        self._writer.start()
        if self._pending:
            self._wake.set()

    # --- writes ------------------------------------------------------------------------

    def create(
        self,
        kind: EntryKind,
        title: str,
        source: str = "",
        text: str = "",
        segments: tuple[TimedText, ...] = (),
        stopped_at_s: float = 0.0,
    ) -> int:
        """A new entry; `stopped_at_s` > 0: its run was stopped there (cancelled, or the app quit)."""
        with self._lock:
            entry_id, self._next_id = self._next_id, self._next_id + 1
            self._write(
                "create",
                id=entry_id,
                kind=kind.value,
                title=title,
                source=source,
                text=text,
                segments=segments_json(segments),
                stopped_at_s=stopped_at_s,
            )
        return entry_id

    def append(self, entry_id: int, text: str) -> None:
        """Add committed text to the end of an entry (stored at once, or queued and journaled)."""
        self._write("append", id=entry_id, text=text)

    def take_back(self, entry_id: int, removed: str, text: str = "", drop_words: int = 0) -> None:
        """Replace `removed` at the end of an entry's text by `text` (a spoken editing command),
        and forget the times of its last `drop_words` words (those of `removed`); nothing changes
        when the text no longer ends with `removed`."""
        self._write("take_back", id=entry_id, removed=removed, text=text, drop_words=drop_words)

    def add_words(self, entry_id: int, words: tuple[TimedText, ...]) -> None:
        """Record when committed words of a dictation were spoken (in the order they were committed)."""
        if words:
            self._write("add_words", id=entry_id, words=segments_json(words))

    def set_text(self, entry_id: int, text: str) -> None:
        """Replace an entry's text (the user edited it)."""
        self._write("set_text", id=entry_id, text=text)

    def set_segments(self, entry_id: int, pieces: tuple[TimedText, ...]) -> None:
        """The user edited the text of timed pieces: each keeps its times, the text follows them."""
        text = " ".join(p.text.strip() for p in pieces if p.text.strip())
        self._write("set_segments", id=entry_id, text=text, segments=segments_json(pieces))

    def revert(self, entry_id: int) -> None:
        """Give an edited entry back the text it was transcribed with (`HistoryEntry.original`)."""
        self._write("revert", id=entry_id)

    def rename(self, entry_id: int, title: str) -> None:
        """Name an entry ("" gives it back its default name, its first words)."""
        self._write("rename", id=entry_id, title=title.strip())

    def add_segment(self, entry_id: int, piece: TimedText) -> None:
        """Record when a piece of an entry's text (a dictated utterance) was spoken."""
        self._write("add_segment", id=entry_id, segment=json.dumps([piece.start, piece.end, piece.text]))

    def delete(self, entry_id: int) -> None:
        """Delete the entry and the audio kept for it."""
        self._write("delete", id=entry_id)
        self.audio.delete(entry_id)

    def delete_if_empty(self, entry_id: int) -> None:
        self._write("delete_if_empty", id=entry_id)
        if self.get(entry_id) is None:
            self.audio.delete(entry_id)

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
                except DatabaseLocked as why:
                    log.warning("The history database cannot be written now (%s); queuing writes", why)
            write = PendingWrite(op, args)
            try:
                self.journal.append(write)  # durable before we return: the caller may be killed next
            except OSError:  # the disk is full too: kept in memory, stored once there is room
                log.warning("The history journal %s cannot be written", self.journal.path, exc_info=True)
            self._pending.append(write)
        self._wake.set()

    def _apply(self, write: PendingWrite, journaled: bool) -> None:
        """One write in one transaction (with its journal mark); raises `DatabaseLocked`."""
        args = stored_args(write, self._renamed)
        if not self._schema_ready and not ensure_schema(self._db):
            raise DatabaseLocked
        self._schema_ready = True
        store_write(self._db, write, args, journaled, self._renamed)

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
            except DatabaseLocked:
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

    # --- reads (what is stored, with the queued writes applied on top) ---------------

    def get(self, entry_id: int) -> HistoryEntry | None:
        entry_id = self._renamed.get(entry_id, entry_id)
        rows = self._select("WHERE id = ?", (entry_id,))
        return next((e for e in self._with_pending(rows) if e.id == entry_id), None)

    def search(self, query: str = "", limit: int = 500) -> list[HistoryEntry]:
        """Newest first; `query` matches title or text, case-insensitively."""
        needle = query.strip()
        rows = self._select(
            "WHERE (title LIKE ? OR text LIKE ?) ORDER BY updated DESC, id DESC LIMIT ?",
            (f"%{needle}%", f"%{needle}%", limit),
        )
        found = [
            e for e in self._with_pending(rows) if needle.lower() in e.title.lower() or needle.lower() in e.text.lower()
        ]
        return found[:limit]

    def _select(self, where: str, params: tuple[Any, ...]) -> list[HistoryEntry]:
        with self._lock:
            try:
                rows = self._db.execute(
                    f"SELECT id, kind, title, source, created, updated, text, segments, original, stopped_at_s,"
                    f" words"
                    f" FROM entries {where}",
                    params,
                ).fetchall()
            except sqlite3.OperationalError:  # no table yet (the file was locked when we opened it)
                log.exception("Could not read the history")
                rows = []
        return [_entry(row) for row in rows]

    def _with_pending(self, entries: list[HistoryEntry]) -> list[HistoryEntry]:
        """`entries` as they will be once the queued writes are stored (newest first)."""
        with self._lock:
            pending = list(self._pending)
        return apply_pending(entries, pending, self._renamed) if pending else entries


def _entry(row: tuple[int, str, str, str, float, float, str, str, str, float, str]) -> HistoryEntry:
    return HistoryEntry(
        row[0],
        EntryKind(row[1]),
        row[2],
        row[3],
        row[4],
        row[5],
        row[6],
        parse_segments(row[7]),
        row[8],
        row[9],
        parse_segments(row[10]),
    )

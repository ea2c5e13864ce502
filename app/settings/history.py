"""The transcript history: one SQLite file in platformdirs' user data dir.

Dictations grow entry by entry as text is committed (`append`), so killing the app loses
nothing committed. Safe to call from any thread (one connection behind a lock; WAL journal).
"""

from __future__ import annotations

import enum
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import platformdirs

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
"""


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


class HistoryStore:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_history_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def create(self, kind: EntryKind, title: str, source: str = "", text: str = "") -> int:
        now = time.time()
        with self._lock:
            cursor = self._db.execute(
                "INSERT INTO entries(kind, title, source, created, updated, text)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (kind.value, title, source, now, now, text),
            )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def append(self, entry_id: int, text: str) -> None:
        """Add committed text to the end of an entry (written through at once)."""
        with self._lock:
            self._db.execute(
                "UPDATE entries SET text = text || ?, updated = ? WHERE id = ?",
                (text, time.time(), entry_id),
            )

    def set_text(self, entry_id: int, text: str) -> None:
        with self._lock:
            self._db.execute(
                "UPDATE entries SET text = ?, updated = ? WHERE id = ?",
                (text, time.time(), entry_id),
            )

    def get(self, entry_id: int) -> HistoryEntry | None:
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

    def delete(self, entry_id: int) -> None:
        with self._lock:
            self._db.execute("DELETE FROM entries WHERE id = ?", (entry_id,))

    def delete_if_empty(self, entry_id: int) -> None:
        with self._lock:
            self._db.execute("DELETE FROM entries WHERE id = ? AND trim(text) = ''", (entry_id,))


def _entry(row: tuple[int, str, str, str, float, float, str]) -> HistoryEntry:
    return HistoryEntry(row[0], EntryKind(row[1]), row[2], row[3], row[4], row[5], row[6])

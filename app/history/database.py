"""Opening the history's SQLite file: private modes, WAL, a damaged file kept aside.

A file SQLite cannot read (random bytes, a failed `quick_check`; a folder in its place) is renamed to
`history.sqlite3.corrupt-<time>` (with its -wal/-shm) and a new database is created; the caller
gets a one-line notice for the user. A file this user may not read or write (left by `sudo earshot`,
another user's) is kept aside the same way, as `history.sqlite3.unreadable-<time>`, untouched.
The database and its -wal/-shm are 0600 in a 0700 folder.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from pathlib import Path

from app.private_files import private_dir, private_file, tighten

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 100
"""How long one statement waits for another process's lock before it gives up (and is queued)."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    title TEXT NOT NULL,
    source TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL,
    updated REAL NOT NULL,
    text TEXT NOT NULL DEFAULT '',
    segments TEXT NOT NULL DEFAULT '',
    original TEXT NOT NULL DEFAULT '',
    stopped_at_s REAL NOT NULL DEFAULT 0,
    words TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS entries_updated ON entries(updated);
CREATE TABLE IF NOT EXISTS applied_journal (uid TEXT PRIMARY KEY);
"""
_CORRUPT = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


def is_busy(exc: sqlite3.Error) -> bool:
    """True when another connection holds the lock we need."""
    return getattr(exc, "sqlite_errorcode", 0) & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def open_database(path: Path) -> tuple[sqlite3.Connection, str | None]:
    """The connection, and a user-facing sentence when a damaged file was replaced, or when the
    history's folder cannot be made (a file in its place, no room, no permission): then the
    history lives in memory for this session."""
    try:
        private_dir(path.parent)
    except OSError as exc:
        log.exception("The history's folder %s cannot be made; the history is kept in memory", path.parent)
        notice = (
            f"The history cannot be saved: its folder {path.parent} cannot be made ({exc.strerror or exc}). "
            "This session's transcripts stay in the History until you quit."
        )
        return sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None), notice
    if path.is_file() and not os.access(path, os.R_OK | os.W_OK):  # SQLite: "unable to open database file"
        log.error("The history database %s may not be read or written by this user; starting a new one", path)
        backup = _keep_aside(path, "unreadable")
        notice = (
            f"The history could not be opened (this user may not read or write {path.name}). It was kept "
            f"as {backup.name}, untouched, and a new, empty history was started."
        )
        return _connect(path), notice
    try:
        if path.exists() and not path.is_file():  # a folder (or a FIFO, which would never answer)
            raise _corrupt_error(f"{path} is not a file")
        return _connect(path), None
    except sqlite3.DatabaseError as exc:
        if exc.sqlite_errorcode & 0xFF not in _CORRUPT:
            raise
        log.exception("The history database %s is unreadable; starting a new one", path)
    backup = _keep_aside(path, "corrupt")
    notice = (
        f"The history could not be read (the file is damaged). It was kept as {backup.name} "
        "and a new, empty history was started."
    )
    return _connect(path), notice


MIGRATIONS = (
    (
        "segments",
        (
            "ALTER TABLE entries ADD COLUMN segments TEXT NOT NULL DEFAULT ''",
            # older files title every dictation "Dictation": untitled, a dictation shows its first words
            "UPDATE entries SET title = '' WHERE kind = 'dictation' AND title = 'Dictation'",
        ),
    ),
    # the text as transcribed, kept beside the user's edit ('' for entries edited before it was kept)
    ("original", ("ALTER TABLE entries ADD COLUMN original TEXT NOT NULL DEFAULT ''",)),
    ("stopped_at_s", ("ALTER TABLE entries ADD COLUMN stopped_at_s REAL NOT NULL DEFAULT 0",)),
    # a dictation's word times, [[start, end, word], ...] ('' for entries stored before them)
    ("words", ("ALTER TABLE entries ADD COLUMN words TEXT NOT NULL DEFAULT ''",)),
)
"""Columns added since the first schema: (column, the statements that upgrade an older file)."""


def ensure_schema(db: sqlite3.Connection) -> bool:
    """Create missing tables and add the columns an older file lacks; False while another
    process's lock prevents it (try later)."""
    try:
        db.executescript(SCHEMA)
        columns = {row[1] for row in db.execute("PRAGMA table_info(entries)")}
        for column, statements in MIGRATIONS:
            if column not in columns:
                _upgrade(db, statements)
                log.info("History database upgraded: entries.%s added", column)
    except sqlite3.OperationalError as exc:
        if not is_busy(exc):
            raise
        log.warning("The history database is locked; its tables are created later")
        return False
    return True


def _upgrade(db: sqlite3.Connection, statements: tuple[str, ...]) -> None:
    """All of `statements` in one transaction, or none of them."""
    db.execute("BEGIN IMMEDIATE")
    try:
        for statement in statements:
            db.execute(statement)
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def last_id(db: sqlite3.Connection) -> int:
    """The highest entry id ever used (0 for a new database)."""
    try:
        row = db.execute(
            "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'entries'), 0),"
            " coalesce((SELECT max(id) FROM entries), 0))"
        ).fetchone()
    except sqlite3.OperationalError:  # no tables yet (created later: the file was locked)
        log.exception("Could not read the last history id")
        return 0
    return int(row[0])


def _connect(path: Path) -> sqlite3.Connection:
    if path.exists():  # never open it ourselves: closing an fd drops SQLite's POSIX locks
        tighten(path)
    else:
        private_file(path)  # 0600 before SQLite creates it; the -wal/-shm copy its mode
    db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    try:
        db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        checked = db.execute("PRAGMA quick_check").fetchone()
        if checked is None or checked[0] != "ok":
            raise _corrupt_error(f"quick_check: {checked}")
    except BaseException:
        db.close()
        raise
    for suffix in ("-wal", "-shm"):
        tighten(path.with_name(path.name + suffix))
    return db


def _keep_aside(path: Path, why: str) -> Path:
    backup = path.with_name(f"{path.name}.{why}-{time.strftime('%Y%m%d-%H%M%S')}")
    for suffix in ("", "-wal", "-shm"):
        part = path.with_name(path.name + suffix)
        if part.exists():
            part.replace(backup.with_name(backup.name + suffix))
            tighten(backup.with_name(backup.name + suffix))
    return backup


def _corrupt_error(message: str) -> sqlite3.DatabaseError:
    error = sqlite3.DatabaseError(message)
    error.sqlite_errorcode = sqlite3.SQLITE_CORRUPT
    return error

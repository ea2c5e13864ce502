"""One History write stored in one SQLite transaction.

A write replayed from the journal is marked in `applied_journal` in the same transaction, so a
journal left by a crash is stored exactly once. A database that cannot take a write now (another
process holds its lock, or the disk is full) raises `DatabaseLocked`, and the store queues it.
"""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

from app.history.database import is_busy
from app.history.statements import STATEMENTS
from app.history.write_journal import PendingWrite

log = logging.getLogger(__name__)


class DatabaseLocked(Exception):
    """The database cannot take a write now: another process holds its lock, or the disk is full.
    The write is queued (and journaled where the disk allows) and stored when it can be."""


def stored_args(write: PendingWrite, renamed: dict[int, int]) -> dict[str, Any]:
    """`write`'s arguments as its statement takes them: the id as stored (`renamed`: id handed
    out -> id stored), and the defaults a journal line from an older Earshot lacks."""
    args = dict(write.args)
    args["id"] = renamed.get(int(args["id"]), int(args["id"]))
    if write.op == "create":
        args.setdefault("segments", "")  # a journal line from an older Earshot has no segments
        args.setdefault("stopped_at_s", 0.0)
    if write.op == "take_back":
        args.setdefault("drop_words", 0)  # a journal line from an older Earshot
    return args


def store_write(
    db: sqlite3.Connection, write: PendingWrite, args: dict[str, Any], journaled: bool, renamed: dict[int, int]
) -> None:
    """`write`, with `args` (`stored_args`), in one transaction, with its journal mark when
    `journaled`; raises `DatabaseLocked`. A created entry whose id another writer took is stored
    under the next free id, which `renamed` records (id handed out -> id stored)."""
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            if journaled and db.execute("SELECT 1 FROM applied_journal WHERE uid = ?", (write.uid,)).fetchone():
                db.execute("COMMIT")
                return  # stored before a crash, journal not yet deleted: exactly once
            _execute(db, write.op, args, renamed)
            if journaled:
                db.execute("INSERT INTO applied_journal(uid) VALUES (?)", (write.uid,))
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
    except sqlite3.OperationalError as exc:
        if is_busy(exc) or exc.sqlite_errorcode & 0xFF == sqlite3.SQLITE_FULL:
            raise DatabaseLocked(str(exc)) from exc
        raise


def _execute(db: sqlite3.Connection, op: str, args: dict[str, Any], renamed: dict[int, int]) -> None:
    try:
        db.execute(STATEMENTS[op], args)
    except sqlite3.IntegrityError:
        if op != "create":
            raise
        wanted = int(args["id"])  # another writer used this id meanwhile: take the next free one
        cursor = db.execute(STATEMENTS[op], {**args, "id": None})
        assert cursor.lastrowid is not None
        renamed[wanted] = cursor.lastrowid
        log.warning("History entry %d was stored as %d", wanted, cursor.lastrowid)

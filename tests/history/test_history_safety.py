"""The history database loses nothing: a damaged file is kept aside and a new one started, a
database locked by another process queues writes (in memory and an fsync'ed journal) instead of
failing, a journal left by a killed app is replayed exactly once, and every file is private."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from earshot_testing import (
    OTHER_USER,
    REPO_ROOT,
    another_users,
    fill_up,
    home_env,
    locked_by_another_process,
    tmpfs,
    without_file_permission_override,
)

from app.history.store import EntryKind, HistoryStore


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_random_bytes_are_kept_as_a_backup_and_a_new_history_starts(tmp_path: Path) -> None:
    db = tmp_path / "data" / "history.sqlite3"
    db.parent.mkdir()
    garbage = os.urandom(16384)
    db.write_bytes(garbage)

    store = HistoryStore(db)

    [backup] = tmp_path.glob("data/history.sqlite3.corrupt-*")
    assert backup.read_bytes() == garbage  # the user's file is kept, byte for byte
    assert store.notice is not None and backup.name in store.notice and "\n" not in store.notice
    entry = store.create(EntryKind.DICTATION, "Dictation", text="new words")
    assert [e.text for e in HistoryStore(db).search()] == ["new words"]
    assert store.get(entry) is not None and HistoryStore(db).notice is None
    assert mode(backup) == 0o600


def test_database_wal_shm_and_journal_are_private(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        db = tmp_path / "fresh" / "earshot" / "history.sqlite3"
        store = HistoryStore(db)
        store.create(EntryKind.DICTATION, "Dictation", text="private words")
        with locked_by_another_process(db):
            store.append(1, " queued")
            assert mode(store.journal.path) == 0o600
    finally:
        os.umask(old)
    assert mode(db.parent) == 0o700 and mode(db.parent.parent) == 0o700
    for suffix in ("", "-wal", "-shm"):
        assert mode(db.with_name(db.name + suffix)) == 0o600, suffix


def test_writes_while_locked_are_queued_then_stored_in_order(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite3"
    store = HistoryStore(db)
    stored: list[bool] = []
    store.on_stored = lambda: stored.append(True)
    entry = store.create(EntryKind.DICTATION, "Dictation")
    with locked_by_another_process(db):
        store.append(entry, "Ask not what your country can do for you,")
        other = store.create(EntryKind.FILE, "meeting.mp3", text="Hello team.")
        store.append(entry, " ask what you can do for your country.")
        assert store.pending == 3 and store.journal.path.is_file()
        assert [e.text for e in HistoryStore(db).search()] == [""]  # not stored yet
        assert [e.title for e in store.search()] == ["Dictation", "meeting.mp3"]  # but kept in memory
        assert store.get(entry).text.endswith("for your country.")
        assert [e.title for e in store.search("team")] == ["meeting.mp3"]
    assert store.flush(30)
    deadline = time.monotonic() + 10
    while not stored and time.monotonic() < deadline:  # told from the writer thread, just after
        time.sleep(0.01)
    assert stored and not store.journal.path.exists()
    again = HistoryStore(db)
    assert again.get(entry) is not None
    assert again.get(entry).text == "Ask not what your country can do for you, ask what you can do for your country."
    assert again.get(other) is not None and again.get(other).text == "Hello team."


_KILLED_WRITER = """
import sys, time
from pathlib import Path
from app.history.store import EntryKind, HistoryStore
store = HistoryStore(Path(sys.argv[1]))
entry = store.create(EntryKind.DICTATION, "Dictation", text="Stored before the lock.")
print("created", flush=True)
sys.stdin.readline()  # the test locks the database now
store.append(entry, " Said while it was locked.")
print("appended", flush=True)
time.sleep(600)
"""


def test_a_journal_left_by_a_killed_app_is_replayed_once(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite3"
    app = subprocess.Popen([sys.executable, "-c", _KILLED_WRITER, str(db)], cwd=REPO_ROOT,
                           env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert app.stdout is not None and app.stdin is not None
    try:
        assert app.stdout.readline().strip() == "created"
        with locked_by_another_process(db):
            app.stdin.write("\n")
            app.stdin.flush()
            assert app.stdout.readline().strip() == "appended"
            app.send_signal(signal.SIGKILL)  # dies while the text is only in its journal
            app.wait(10)
    finally:
        if app.poll() is None:
            app.kill()
        app.stdin.close()  # its pipes, or a ResourceWarning (warnings are errors)
        app.stdout.close()
    assert list(tmp_path.glob("history.sqlite3.journal-*")), "the queued text was not journaled"

    store = HistoryStore(db)
    assert store.flush(30)
    [entry] = store.search()
    assert entry.text == "Stored before the lock. Said while it was locked."
    assert not list(tmp_path.glob("history.sqlite3.journal-*"))
    store.close()
    assert [e.text for e in HistoryStore(db).search()] == [entry.text]  # not appended twice


def _history_of(db: Path, entries: int) -> bytes:
    store = HistoryStore(db)
    for i in range(entries):
        store.create(EntryKind.DICTATION, "", text=f"entry {i} " * 40)
    store.close()
    return db.read_bytes()


@pytest.mark.parametrize("damage", ["a_folder", "truncated", "empty"])
def test_a_history_file_that_is_a_folder_truncated_or_empty_starts_a_usable_history(tmp_path: Path,
                                                                                    damage: str) -> None:
    db = tmp_path / "history.sqlite3"
    if damage == "a_folder":
        db.mkdir()
        (db / "something.txt").write_text("the user's")
    elif damage == "truncated":
        data = _history_of(db, 40)
        db.write_bytes(data[: len(data) // 2])  # as a copy cut short leaves it
    else:
        db.write_bytes(b"")
    store = HistoryStore(db)
    if damage == "empty":
        assert store.notice is None  # an empty file is an empty database
    else:
        [kept] = tmp_path.glob("history.sqlite3.corrupt-*")  # moved aside, nothing deleted
        assert store.notice is not None and kept.name in store.notice
        assert damage != "a_folder" or (kept / "something.txt").read_text() == "the user's"
    store.create(EntryKind.DICTATION, "", text="new words")
    store.close()
    assert [e.text for e in HistoryStore(db).search()] == ["new words"]


def _journal_line(entry: int, text: str) -> bytes:
    """One queued append as a store journals it (write_journal.py's format)."""
    return json.dumps({"uid": uuid.uuid4().hex, "op": "append", "args": {"id": entry, "text": text, "at": 1.0}}
                      ).encode() + b"\n"


def test_a_journal_left_with_damaged_bytes_replays_its_good_lines_and_a_folder_is_passed_over(
        tmp_path: Path) -> None:
    """As a killed app leaves its journal, then damaged between its two lines; and another
    "journal" that is a folder: the next start stores the good writes and starts all the same."""
    db = tmp_path / "history.sqlite3"
    store = HistoryStore(db)
    entry = store.create(EntryKind.DICTATION, "", text="First.")
    store.close()
    damaged = os.urandom(300).replace(b"\n", b"")
    db.with_name(f"{db.name}.journal-0badbytes000").write_bytes(
        _journal_line(entry, " Second.") + damaged + b"\n" + _journal_line(entry, " Third."))
    db.with_name(f"{db.name}.journal-0afolder0000").mkdir()
    again = HistoryStore(db)
    assert again.flush(30)
    assert [e.text for e in again.search()] == ["First. Second. Third."]
    again.close()


def test_a_full_disk_queues_writes_and_stores_them_once_there_is_room(tmp_path: Path) -> None:
    """A real full file system (tmpfs): dictated text is not lost to SQLITE_FULL; it is shown at
    once (queued in memory: the journal cannot be written either) and stored when room is made."""
    with tmpfs(tmp_path / "disk", "size=4m") as disk:
        store = HistoryStore(disk / "history.sqlite3")
        entry = store.create(EntryKind.DICTATION, "", text="Before.")
        fill_up(disk)
        for i in range(20):
            store.append(entry, f" Sentence {i} said while the disk was full.")
        said = store.get(entry)
        assert said is not None and said.text.endswith("Sentence 19 said while the disk was full.")
        (disk / "filler").unlink()
        assert store.flush(30)
        store.close()
        stored = HistoryStore(disk / "history.sqlite3").get(entry)
        assert stored is not None and stored.text == said.text


_OPEN_AND_WRITE = """
from app.history.store import EntryKind, HistoryStore
store = HistoryStore()
print(store.notice)
store.create(EntryKind.DICTATION, "", text="said by this user")
store.close()
print([entry.text for entry in HistoryStore().search()])
"""


def _open_and_write(home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(without_file_permission_override([sys.executable, "-c", _OPEN_AND_WRITE]), cwd=home,
                          env=home_env(home), capture_output=True, text=True, timeout=120)


def test_a_history_this_user_may_not_open_is_kept_aside_untouched_and_a_new_one_starts(tmp_path: Path) -> None:
    """A real unreadable file: another user's 0600 history.sqlite3 (as `sudo earshot` leaves it),
    opened by a process that root's file permission override is taken from. SQLite alone says
    "unable to open database file" and the app did not start."""
    folder = tmp_path / "data" / "earshot"
    theirs = _history_of(folder / "history.sqlite3", entries=3)
    another_users(folder / "history.sqlite3")
    result = _open_and_write(tmp_path)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    notice, texts = result.stdout.splitlines()
    [kept] = folder.glob("history.sqlite3.unreadable-*")
    assert "could not be opened" in notice and kept.name in notice
    assert texts == "['said by this user']"
    assert kept.read_bytes() == theirs and kept.stat().st_uid == OTHER_USER  # untouched
    assert [e.text for e in HistoryStore(kept).search()] == [f"entry {i} " * 40 for i in (2, 1, 0)]


_JOURNAL_WRITER = """
import sys, time
from pathlib import Path
from app.history.write_journal import PendingWrite, WriteJournal
journal = WriteJournal.new_for(Path(sys.argv[1]))  # as a store whose database was locked, then killed
journal.append(PendingWrite("append", {"id": 1, "text": " queued by another user", "at": time.time()}))
print(journal.path)
"""


def test_a_history_journal_this_user_may_not_open_is_kept_and_replayed_once_it_can_be(tmp_path: Path) -> None:
    """A journal of queued writes left by another user's Earshot: passed over, never deleted, and
    replayed once it is this user's."""
    folder = tmp_path / "data" / "earshot"
    db = folder / "history.sqlite3"
    _history_of(db, entries=1)
    left = subprocess.run([sys.executable, "-c", _JOURNAL_WRITER, str(db)], cwd=REPO_ROOT, check=True,
                          env={**os.environ, "PYTHONPATH": str(REPO_ROOT)}, capture_output=True, text=True)
    journal = another_users(Path(left.stdout.strip()))
    theirs = journal.read_bytes()
    first = _open_and_write(tmp_path)
    assert first.returncode == 0, first.stderr  # (its log says why the journal is passed over)
    assert "queued by another user" not in first.stdout and journal.read_bytes() == theirs
    os.chown(journal, os.getuid(), os.getgid())
    second = _open_and_write(tmp_path)
    assert second.returncode == 0, second.stderr
    assert "queued by another user" in second.stdout.splitlines()[1]
    assert not journal.exists()

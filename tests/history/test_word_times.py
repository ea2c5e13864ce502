"""A dictation's word times in the History (issue 32, item 20): a database from before they were
kept opens with its entries whole and takes word times from then on; a spoken "scratch that"
forgets the times of the words it takes back, stored at once or queued while the file is locked."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from earshot_testing import locked_by_another_process

from app.history.store import EntryKind, HistoryStore, TimedText

PREVIOUS_SCHEMA = """
CREATE TABLE entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, title TEXT NOT NULL,
    source TEXT NOT NULL DEFAULT '', created REAL NOT NULL, updated REAL NOT NULL,
    text TEXT NOT NULL DEFAULT '', segments TEXT NOT NULL DEFAULT '', original TEXT NOT NULL DEFAULT '',
    stopped_at_s REAL NOT NULL DEFAULT 0
);
CREATE INDEX entries_updated ON entries(updated);
CREATE TABLE applied_journal (uid TEXT PRIMARY KEY);
INSERT INTO entries(kind, title, created, updated, text, segments)
    VALUES ('dictation', '', 1.0, 1.0, 'Call Maria today.', '[[0.5, 2.0, "Call Maria today."]]');
"""
WORDS = (TimedText(0.5, 0.8, "Call"), TimedText(0.9, 1.4, "Maria"), TimedText(1.5, 2.0, "today."))


def test_a_history_from_before_word_times_opens_whole_and_keeps_them_from_then_on(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite3"
    with sqlite3.connect(db) as old:
        old.executescript(PREVIOUS_SCHEMA)
    store = HistoryStore(db)
    [entry] = store.search()
    assert entry.text == "Call Maria today." and entry.timed and entry.words == ()
    store.add_words(entry.id, WORDS[:2])
    store.add_words(entry.id, WORDS[2:])
    store.close()
    [again] = HistoryStore(db).search()
    assert again.words == WORDS and again.pieces == entry.pieces


def test_scratch_that_forgets_the_times_of_the_words_it_takes_back(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite3"
    store = HistoryStore(db)
    entry = store.create(EntryKind.DICTATION, "")
    store.append(entry, "Call Maria today.")
    store.add_words(entry, WORDS)
    store.take_back(entry, " today.", "", drop_words=1)
    assert HistoryStore(db).get(entry).words == WORDS[:2]
    with locked_by_another_process(db):  # queued: read back as it will be stored
        store.append(entry, " Friday.")
        store.add_words(entry, (TimedText(2.5, 3.0, "Friday."),))
        store.take_back(entry, " Friday.", "", drop_words=1)
        assert store.get(entry).words == WORDS[:2]
    assert store.flush(10)
    assert HistoryStore(db).get(entry).words == WORDS[:2]

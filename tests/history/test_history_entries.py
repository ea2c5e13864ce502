"""History entries: names, edits, times, and an older history file upgraded in place."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from earshot_testing import locked_by_another_process

from app.history.store import EntryKind, HistoryStore, TimedText

OLD_SCHEMA = """
CREATE TABLE entries (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, title TEXT NOT NULL,
    source TEXT NOT NULL DEFAULT '', created REAL NOT NULL, updated REAL NOT NULL, text TEXT NOT NULL DEFAULT '');
CREATE INDEX entries_updated ON entries(updated);
CREATE TABLE applied_journal (uid TEXT PRIMARY KEY);
INSERT INTO entries(kind, title, source, created, updated, text) VALUES
    ('dictation', 'Dictation', '', 1.0, 1.0, 'Please move the meeting to Thursday afternoon and invite the team.'),
    ('file', 'meeting.wav', '/x/meeting.wav', 2.0, 2.0, 'Good morning everyone.');
"""


def test_a_history_written_before_names_and_times_is_upgraded_and_keeps_its_entries(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite3"
    with sqlite3.connect(db) as old:
        old.executescript(OLD_SCHEMA)
    store = HistoryStore(db)
    dictation, file = sorted(store.search(), key=lambda e: e.id)
    assert dictation.name == "Please move the meeting to Thursday…"  # not "Dictation"
    assert file.name == "meeting.wav" and file.text == "Good morning everyone."
    assert dictation.segments == () and not dictation.timed
    store.add_segment(file.id, TimedText(0.3, 1.9, "Good morning everyone."))
    store.rename(dictation.id, "Thursday plan")
    store.close()

    again = HistoryStore(db)  # the upgrade ran once; a second open changes nothing
    dictation, file = sorted(again.search(), key=lambda e: e.id)
    assert dictation.name == "Thursday plan"
    assert file.segments == (TimedText(0.3, 1.9, "Good morning everyone."),) and file.timed
    with sqlite3.connect(db) as check:
        columns = [row[1] for row in check.execute("PRAGMA table_info(entries)")]
    assert columns[-4:] == ["segments", "original", "stopped_at_s", "words"]


def test_an_edit_keeps_the_transcribed_text_beside_it_and_revert_brings_it_back(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite3"
    store = HistoryStore(db)
    entry = store.create(EntryKind.DICTATION, "", text="Call me back in ten minutes.")
    assert not store.get(entry).edited and store.get(entry).original == ""
    store.set_text(entry, "x")  # the slip: select all, type x
    store.set_text(entry, "xy")  # a second edit keeps the first original, not the slip
    slipped = HistoryStore(db).get(entry)
    assert (slipped.text, slipped.original, slipped.edited) == ("xy", "Call me back in ten minutes.", True)
    store.revert(entry)
    back = HistoryStore(db).get(entry)
    assert (back.text, back.original, back.edited) == ("Call me back in ten minutes.", "", False)
    with locked_by_another_process(db):  # the same while writes are queued
        store.set_text(entry, "Call me.")
        store.append(entry, " Bye.")
        shown = store.get(entry)
        assert (shown.text, shown.original) == ("Call me. Bye.", "Call me back in ten minutes. Bye.")
        store.revert(entry)
        assert store.get(entry).text == "Call me back in ten minutes. Bye."
    assert store.flush(10)
    stored = HistoryStore(db).get(entry)
    assert (stored.text, stored.edited) == ("Call me back in ten minutes. Bye.", False)


def test_edits_renames_and_times_while_locked_show_at_once_and_are_stored_later(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite3"
    store = HistoryStore(db)
    entry = store.create(EntryKind.DICTATION, "", text="Call me back in ten minutes.")
    with locked_by_another_process(db):
        store.add_segment(entry, TimedText(0.0, 2.5, "Call me back in ten minutes."))
        store.rename(entry, "  Callback  ")
        store.set_text(entry, "Call me back in twenty minutes.")
        assert store.pending == 3
        [shown] = store.search()
        assert (shown.name, shown.text) == ("Callback", "Call me back in twenty minutes.")
        assert shown.segments and not shown.timed  # edited: its times no longer fit its text
    assert store.flush(10)
    [stored] = HistoryStore(db).search()
    assert (stored.name, stored.text, len(stored.segments)) == ("Callback", "Call me back in twenty minutes.", 1)


def test_a_dictation_whose_pieces_begin_with_the_last_ones_full_stop_keeps_its_times(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / "history.sqlite3")
    text = "Good morning everyone. Question: who is coming?"
    entry = store.create(EntryKind.DICTATION, "", text=text)  # as stored before the mark was given back
    store.add_segment(entry, TimedText(0.2, 1.8, "Good morning everyone"))
    store.add_segment(entry, TimedText(2.1, 4.0, ". Question: who is coming?"))
    stored = store.get(entry)
    assert stored.timed  # not "edited after it was transcribed": it was not
    assert [p.text for p in stored.pieces] == ["Good morning everyone.", "Question: who is coming?"]
    assert [(p.start, p.end) for p in stored.pieces] == [(0.2, 1.8), (2.1, 4.0)]

"""The SQLite history: committed text is on disk at once and survives a new store."""

from __future__ import annotations

from pathlib import Path

from app.history.store import EntryKind, HistoryStore


def test_history_survives_restart(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite3"
    first = HistoryStore(db)
    dictation = first.create(EntryKind.DICTATION, "Dictation")
    first.append(dictation, "Ask not what your country can do for you,")
    first.append(dictation, " ask what you can do for your country.")
    first.create(EntryKind.FILE, "meeting.mp3", source="/tmp/meeting.mp3", text="Hello team.")
    # no close(): a killed app never gets to close its store

    second = HistoryStore(db)
    entries = second.search()
    assert [e.title for e in entries] == ["meeting.mp3", "Dictation"]
    assert entries[1].text == (
        "Ask not what your country can do for you, ask what you can do for your country."
    )
    assert [e.title for e in second.search("COUNTRY")] == ["Dictation"]
    second.delete(dictation)
    assert [e.kind for e in HistoryStore(db).search()] == [EntryKind.FILE]


def test_empty_dictation_is_dropped(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / "h.sqlite3")
    empty = store.create(EntryKind.DICTATION, "Dictation")
    kept = store.create(EntryKind.DICTATION, "Dictation", text="words")
    store.delete_if_empty(empty)
    store.delete_if_empty(kept)
    assert [e.id for e in store.search()] == [kept]

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


def test_the_history_moves_with_earshot_data_dir(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The README says $EARSHOT_DATA_DIR moves the user's data: the history goes there too, not
    into the user data folder of the platform."""
    moved, platform_data = tmp_path / "moved", tmp_path / "xdg-data"
    monkeypatch.setenv("EARSHOT_DATA_DIR", str(moved))
    monkeypatch.setenv("XDG_DATA_HOME", str(platform_data))
    store = HistoryStore()
    store.create(EntryKind.FILE, "meeting.mp3", source="/tmp/meeting.mp3", text="Hello team.")
    assert store.path == moved / "history.sqlite3" and store.path.is_file()
    assert [e.title for e in HistoryStore(moved / "history.sqlite3").search()] == ["meeting.mp3"]
    assert not platform_data.exists()

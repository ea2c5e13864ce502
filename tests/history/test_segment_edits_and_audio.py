"""Editing an entry segment by segment keeps each segment's times and its text as transcribed,
and an entry's kept audio goes when the entry goes."""

from __future__ import annotations

from pathlib import Path

from app.history.store import EntryKind, HistoryStore, TimedText

PIECES = (TimedText(0.3, 1.9, "Good morning everyone."), TimedText(2.4, 5.05, "Today we review the budget."))


def test_a_segment_edit_keeps_the_times_and_the_original(tmp_path: Path) -> None:
    history = HistoryStore(tmp_path / "history.sqlite3")
    entry_id = history.create(EntryKind.FILE, "", "/in/board.wav", " ".join(p.text for p in PIECES), PIECES)
    edited = (PIECES[0], TimedText(2.4, 5.05, "Today we review the whole budget."))
    history.set_segments(entry_id, edited)
    history.close()
    entry = HistoryStore(tmp_path / "history.sqlite3").get(entry_id)
    assert entry is not None and entry.text == "Good morning everyone. Today we review the whole budget."
    assert entry.pieces == edited and entry.timed  # still exportable as SRT with its times
    assert entry.original == "Good morning everyone. Today we review the budget." and entry.edited


def test_kept_audio_is_deleted_with_its_entry_and_with_an_empty_one(tmp_path: Path) -> None:
    history = HistoryStore(tmp_path / "history.sqlite3")
    spoken, silent = history.create(EntryKind.DICTATION, "", text="Hello."), history.create(EntryKind.DICTATION, "")
    for entry_id in (spoken, silent):
        history.audio.path_for(entry_id).write_bytes(b"RIFF")
    history.delete_if_empty(spoken)  # it has words: it stays, and so does its audio
    history.delete_if_empty(silent)
    assert history.audio.kept(spoken) is not None and history.audio.kept(silent) is None
    history.delete(spoken)
    assert history.audio.kept(spoken) is None and not list(history.audio.folder.iterdir())

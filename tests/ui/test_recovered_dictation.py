"""A dictation killed before its audio was transcribed: Transcribe puts the recovered words into
that dictation's own History entry (after what it had stored), not into a second entry beside
a "(no text)" one; Discard removes the entry a session killed before its first words left.

The leftover is a real audio journal (what a killed session leaves: its folder, segments and
entry id, let go without being discarded); the window, its model and the job are real."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from earshot_testing import read_wav
from gui_helpers import CLIPS, DATA, normalized, open_window, wait_model_ready

from app.controller.app_controller import AppParts
from app.dictation.audio_journal import AudioJournal
from app.history.store import EntryKind

MORNING = "espeak_morning.wav"


def killed_session(parts: AppParts, recovery: Path, stored: str) -> int:
    """The History entry and audio journal a session killed after storing `stored` leaves."""
    entry_id = parts.history.create(EntryKind.DICTATION, "", text=stored)
    journal = AudioJournal(recovery, entry_id=entry_id)
    journal.write(read_wav(DATA / MORNING))
    journal.close()  # let go as a killed process does: the files stay
    return entry_id


def history_rows(window) -> list[str]:  # type: ignore[no-untyped-def]
    panel = window.history_panel
    panel.refresh()
    return [panel.list.item(i).text() for i in range(panel.list.count())]


def test_recovered_words_go_into_the_killed_dictations_own_entry(qtbot, parts, tmp_path: Path) -> None:
    recovery = tmp_path / "recovery"
    parts = dataclasses.replace(parts, recovery_dir=recovery)
    entry_id = killed_session(parts, recovery, "")  # killed before its first words were stored
    window = open_window(qtbot, parts)
    assert window.recovery.isVisible()
    wait_model_ready(qtbot, window)

    window.recovery.transcribe_button.click()
    jobs = window.controller.jobs
    qtbot.waitUntil(lambda: jobs.pending() == 0 and bool(jobs.jobs), timeout=120_000)

    [entry] = window.controller.history.search()
    assert entry.id == entry_id and entry.kind is EntryKind.DICTATION
    assert normalized(entry.text) == normalized(CLIPS[MORNING]["text"])
    assert entry.timed  # its times are the session's: it can be exported as subtitles
    rows = history_rows(window)
    assert len(rows) == 1 and "(no text)" not in rows[0] and "Recovered dictation" not in rows[0], rows


def test_discarding_the_audio_of_a_dictation_killed_before_its_first_words_leaves_no_empty_entry(
        qtbot, parts, tmp_path: Path) -> None:
    recovery = tmp_path / "recovery"
    parts = dataclasses.replace(parts, recovery_dir=recovery)
    killed_session(parts, recovery, "")
    kept = killed_session(parts, recovery, "Words stored before the kill.")
    window = open_window(qtbot, parts, load=False)

    window.recovery.discard_button.click()
    window.recovery.discard_button.click()

    assert not window.recovery.isVisible()
    assert [e.id for e in window.controller.history.search()] == [kept]
    assert history_rows(window) and all("(no text)" not in row for row in history_rows(window))

"""A run that was stopped before the end (Cancel, or quitting while it ran) keeps the text
transcribed so far in the History, and its entry says it stopped, unlike a complete run.

Real engine and decoding, the real window; a long recording made of the espeak clips."""

from __future__ import annotations

import re
from pathlib import Path

from gui_helpers import open_window
from test_job_progress import long_recording

from app.controller.states import JobState
from app.history.store import HistoryStore
from app.ui.history_delegate import WHEN_ROLE

STOPPED = re.compile(r".* · stopped at \d:\d\d")


def stamps(window) -> dict[str, str]:  # type: ignore[no-untyped-def]
    panel = window.history_panel
    panel.refresh()
    return {panel.list.item(i).data(WHEN_ROLE): panel.list.item(i).text() for i in range(panel.list.count())}


def test_a_cancelled_run_and_a_complete_run_of_the_same_file_look_different(qtbot, parts, tmp_path: Path) -> None:
    window = open_window(qtbot, parts)
    jobs = window.controller.jobs
    lecture = long_recording(tmp_path / "lecture.wav", 40.0)
    (cancelled,) = jobs.add([lecture])
    qtbot.waitUntil(lambda: jobs.jobs[cancelled.id].done_s > 5.0, timeout=300_000)
    jobs.cancel(cancelled.id)
    qtbot.waitUntil(lambda: jobs.pending() == 0, timeout=300_000)
    jobs.add([lecture])
    qtbot.waitUntil(lambda: jobs.pending() == 0, timeout=300_000)

    entries = window.controller.history.search()
    assert len(entries) == 2 and {e.name for e in entries} == {"lecture.wav"}
    complete, stopped = sorted(entries, key=lambda e: e.stopped_at_s)
    assert complete.stopped_at_s == 0 and 5.0 < stopped.stopped_at_s < 40.0
    shown = stamps(window)
    assert [s for s in shown if STOPPED.fullmatch(s)] and [s for s in shown if "stopped" not in s], shown
    panel = window.history_panel
    tips = [panel.list.item(i).toolTip() for i in range(panel.list.count())]
    assert sum("Incomplete" in tip for tip in tips) == 1


def test_quitting_during_a_job_keeps_the_text_so_far_as_cancel_does(qtbot, parts, tmp_path: Path) -> None:
    window = open_window(qtbot, parts)
    jobs = window.controller.jobs
    (job,) = jobs.add([long_recording(tmp_path / "lecture.wav", 60.0)])
    qtbot.waitUntil(lambda: jobs.jobs[job.id].done_s > 5.0, timeout=300_000)
    assert jobs.jobs[job.id].state == JobState.TRANSCRIBING
    window.confirm_quit_jobs = lambda _parent, _running: True  # "Quit anyway"

    window.quit()

    [entry] = HistoryStore(window.controller.history.path).search()  # what the next start shows
    assert entry.name == "lecture.wav" and len(entry.text.split()) > 5
    assert 5.0 < entry.stopped_at_s < 60.0

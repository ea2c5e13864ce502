"""Watch folders in the app: a folder added in Settings > Watch folders is watched at once; a clip
copied into it (into a folder inside it too) appears in the files panel and is transcribed, once,
and its transcript is written beside it as text (the default).
Real engine (tiny.en), real files; only the folder dialog is answered (a modal dialog cannot be
clicked offscreen) and the poll is made short through `AppParts.watch`."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

from gui_helpers import CLIPS, DATA, normalized, open_window

from app.controller.states import JobState
from app.controller.watched_files import WatchOptions
from app.settings.schema import WatchFolder
from app.settings.store import SettingsStore
from app.ui.settings_dialog import SettingsDialog


def test_a_clip_copied_into_a_watch_folder_is_transcribed_once(qtbot, parts, tmp_path: Path) -> None:
    inbox = tmp_path / "recorder inbox"
    (inbox / "monday").mkdir(parents=True)
    parts = dataclasses.replace(parts, watch=WatchOptions(poll_ms=100, settle_s=0.5))
    window = open_window(qtbot, parts)
    dialog = SettingsDialog(window.controller, window)
    qtbot.addWidget(dialog)
    dialog.watch_page.choose_folder = lambda _parent: str(inbox)
    dialog.watch_page.add_button.click()
    assert dialog.watch_page.list.item(0).text() == str(inbox)
    dialog.accept()
    assert SettingsStore(parts.settings_store.path).load().settings.window.watch_folders == [
        WatchFolder(str(inbox), ["txt"], "")]

    shutil.copy(DATA / "espeak_weather.wav", inbox / "monday" / "weather.wav")

    panel, jobs = window.jobs_panel, window.controller.jobs
    qtbot.waitUntil(lambda: len(panel.rows) == 1 and jobs.pending() == 0, timeout=300_000)
    (job,) = jobs.jobs.values()
    assert panel.rows[job.id].name.text() == "weather.wav"
    assert job.state == JobState.DONE and job.transcript is not None
    assert normalized(job.transcript.text) == normalized(CLIPS["espeak_weather.wav"]["text"])
    written = inbox / "monday" / "weather.txt"
    qtbot.waitUntil(written.exists)
    assert normalized(written.read_text(encoding="utf-8")) == normalized(CLIPS["espeak_weather.wav"]["text"])
    # its claim is released off the GUI thread once the file is written
    qtbot.waitUntil(lambda: sorted(p.name for p in (inbox / "monday").iterdir()) == ["weather.txt", "weather.wav"])
    qtbot.wait(1500)  # several more polls: a file that has not changed is not queued again
    assert len(panel.rows) == 1


def test_the_next_start_leaves_transcribed_files_alone_and_queues_changed_ones(qtbot, parts, tmp_path: Path) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    shutil.copy(DATA / "espeak_weather.wav", inbox / "weather.wav")
    shutil.copy(DATA / "espeak_meeting.wav", inbox / "meeting.wav")
    settings = parts.settings_store.load().settings
    settings.window.watch_folders = [WatchFolder(str(inbox))]
    parts.settings_store.save(settings)
    parts = dataclasses.replace(parts, watch=WatchOptions(poll_ms=100, settle_s=0.3))
    first = open_window(qtbot, parts)  # an earlier run of the app: both files are transcribed
    qtbot.waitUntil(lambda: len(first.jobs_panel.rows) == 2 and first.controller.jobs.pending() == 0,
                    timeout=300_000)
    first.close()
    shutil.copy(DATA / "espeak_morning.wav", inbox / "meeting.wav")  # replaced while Earshot was closed

    window = open_window(qtbot, parts)

    jobs = window.controller.jobs
    qtbot.waitUntil(lambda: len(jobs.jobs) == 1 and jobs.pending() == 0, timeout=300_000)
    qtbot.wait(1500)  # several more polls: weather.wav, transcribed before, stays out
    (job,) = jobs.jobs.values()
    assert job.path == inbox / "meeting.wav" and job.transcript is not None
    assert normalized(job.transcript.text) == normalized(CLIPS["espeak_morning.wav"]["text"])

"""Dropping folders on the window: every audio and video file inside, at any depth, becomes a row
(hidden files and other files left out); a dropped folder without any says so in one line.
Real engine (tiny.en), real PyAV decoding, real widgets."""

from __future__ import annotations

import shutil
from pathlib import Path

from gui_helpers import CLIPS, DATA, normalized, open_window
from test_file_drop import drop_files

from app.controller.states import JobState


def test_a_dropped_folder_queues_its_media_files_recursively(qtbot, parts, tmp_path: Path) -> None:
    show = tmp_path / "podcast"
    (show / "season 1" / "raw").mkdir(parents=True)
    (show / ".cache").mkdir()
    shutil.copy(DATA / "espeak_weather.wav", show / "intro.wav")
    shutil.copy(DATA / "espeak_meeting.wav", show / "season 1" / "raw" / "episode.WAV")
    shutil.copy(DATA / "espeak_weather.wav", show / ".cache" / "hidden.wav")
    shutil.copy(DATA / "espeak_weather.wav", show / "._intro.wav")  # a macOS resource fork
    (show / "season 1" / "notes.txt").write_text("not audio")
    photos = tmp_path / "photos"
    photos.mkdir()
    (photos / "cover.jpg").write_bytes(b"\xff\xd8\xff")
    window = open_window(qtbot, parts)
    panel, jobs = window.jobs_panel, window.controller.jobs

    drop_files(window, [show, photos])

    assert [row.name.text() for row in panel.rows.values()] == ["intro.wav", "episode.WAV"]
    assert window.statusBar().currentMessage() == "No audio or video files in photos"
    qtbot.waitUntil(lambda: jobs.pending() == 0, timeout=300_000)
    texts = {job.path.name: job.transcript.text for job in jobs.jobs.values()
             if job.state == JobState.DONE and job.transcript is not None}
    assert normalized(texts["intro.wav"]) == normalized(CLIPS["espeak_weather.wav"]["text"])
    assert normalized(texts["episode.WAV"]) == normalized(CLIPS["espeak_meeting.wav"]["text"])
    assert panel.summary.text() == "2 done"

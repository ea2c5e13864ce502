"""A long file shows its progress (audio time done of total, ETA) and can be cancelled; the
next file in the queue is still transcribed. Real engine, real decoding."""

from __future__ import annotations

import re
import wave
from pathlib import Path

import numpy as np
from gui_helpers import CLIPS, DATA, normalized, open_window
from PySide6.QtWidgets import QApplication

from app.audio.file_decoder import decode_audio
from app.controller.states import JobState


def long_recording(path: Path, seconds: float = 75.0) -> Path:
    """The espeak clips one after another with 1 s pauses, repeated to `seconds` (16 kHz)."""
    pause = np.zeros(16_000, dtype=np.float32)
    pieces = [decode_audio(DATA / name) for name in CLIPS if CLIPS[name]["kind"] == "speech"]
    audio = np.concatenate([x for clip in pieces for x in (clip, pause)])
    audio = np.resize(audio, int(seconds * 16_000))
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(16_000)
        out.writeframes((np.clip(audio, -1, 1) * 32767).astype("<i2").tobytes())
    return path


def test_progress_eta_and_cancel(qtbot, parts, tmp_path: Path) -> None:
    long_file = long_recording(tmp_path / "all-hands.wav")
    window = open_window(qtbot, parts)
    jobs = window.controller.jobs
    first, second = window.controller.jobs.add([long_file, DATA / "espeak_weather.wav"])
    row = window.jobs_panel.rows[first.id]

    progress = re.compile(r"Transcribing · \d:\d\d of 1:15 · about \d+:\d\d left")
    qtbot.waitUntil(lambda: progress.fullmatch(row.status.text()) is not None, timeout=300_000)
    assert 0 < row.progress.value() < 1000
    assert window.jobs_panel.rows[second.id].status.text() == "Waiting"

    row.cancel_button.click()
    qtbot.waitUntil(lambda: jobs.pending() == 0, timeout=300_000)
    # Cancel keeps what was transcribed so far (as the CLI does), says so, and offers it.
    kept = re.compile(r"Cancelled at \d:\d\d of 1:15 · the (\d+) words transcribed so far are kept")
    first, second = jobs.jobs[first.id], jobs.jobs[second.id]  # the latest snapshots (jobs are frozen)
    assert first.state == JobState.CANCELLED
    assert (match := kept.fullmatch(row.status.text())) is not None, row.status.text()
    assert first.transcript is not None and int(match[1]) == len(first.transcript.text.split()) > 0
    assert row.copy_button.isVisible() and row.export_button.isVisible()
    row.copy_button.click()
    assert normalized(QApplication.clipboard().text()) == normalized(first.transcript.text)
    first_words = normalized(CLIPS[next(iter(CLIPS))]["text"]).split()[:4]
    assert normalized(first.transcript.text).split()[:4] == first_words
    assert any(item.startswith("all-hands.wav") for item in history_titles(window))
    assert second.state == JobState.DONE
    assert normalized(second.transcript.text) == normalized(CLIPS["espeak_weather.wav"]["text"])


def history_titles(window) -> list[str]:  # type: ignore[no-untyped-def]
    panel = window.history_panel
    return [panel.list.item(i).text() for i in range(panel.list.count())]

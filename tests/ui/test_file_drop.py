"""Dropping files on the window: each becomes a job row; a broken file shows its error in its
row and the queue goes on. Real engine (tiny.en), real PyAV decoding."""

from __future__ import annotations

from pathlib import Path

from gui_helpers import CLIPS, DATA, normalized, open_window
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from app.controller.states import JobState


def drop_files(widget: object, paths: list[Path]) -> None:
    """What Qt delivers when files from a file manager are dropped on `widget`."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    point = QPointF(300, 300)
    buttons, mods = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(point.toPoint(), Qt.DropAction.CopyAction, mime, buttons, mods)
    QApplication.sendEvent(widget, enter)
    assert enter.isAccepted(), "the window refused the drag"
    QApplication.sendEvent(widget, QDropEvent(point, Qt.DropAction.CopyAction, mime, buttons, mods))


def test_drop_good_and_broken_file(qtbot, parts, tmp_path: Path) -> None:
    broken = tmp_path / "voice-memo.mp3"
    broken.write_bytes(b"ID3\x03\x00 this is not really an mp3" * 20)
    window = open_window(qtbot, parts)
    panel = window.jobs_panel

    drop_files(window, [broken, DATA / "espeak_weather.wav"])

    jobs = window.controller.jobs
    qtbot.waitUntil(lambda: len(jobs.jobs) == 2 and jobs.pending() == 0, timeout=300_000)
    bad_id, good_id = sorted(jobs.jobs)
    bad_row, good_row = panel.rows[bad_id], panel.rows[good_id]

    assert panel.isVisible()
    assert panel.summary.text() == "1 done · 1 failed"  # the header counts what the rows say
    assert jobs.jobs[bad_id].state == JobState.FAILED
    assert "voice-memo.mp3" in bad_row.status.text()
    assert bad_row.status.property("error") is True
    assert not bad_row.export_button.isVisible() and bad_row.remove_button.isVisible()

    assert jobs.jobs[good_id].state == JobState.DONE
    assert good_row.status.text().startswith("Done"), good_row.status.text()
    assert good_row.open_button.isVisible() and good_row.export_button.isVisible()
    transcript = jobs.jobs[good_id].transcript
    assert transcript is not None
    assert normalized(transcript.text) == normalized(CLIPS["espeak_weather.wav"]["text"])

    good_row.copy_button.click()
    assert normalized(QApplication.clipboard().text()) == normalized(transcript.text)
    titles = [window.history_panel.list.item(i).text() for i in range(window.history_panel.list.count())]
    assert len(titles) == 1 and titles[0].startswith("espeak_weather.wav")

    # Export SRT: the native save dialog is replaced by the path a user would pick (a modal
    # file dialog cannot be clicked through offscreen); the writing is the real exporter's.
    target = tmp_path / "exports" / "weather.srt"
    target.parent.mkdir()
    panel.save_as = lambda _parent, suggested, fmt: (
        str(target) if suggested.endswith("espeak_weather.srt") and fmt == "srt" else ""
    )
    srt_action = next(a for a in good_row.export_button.menu().actions() if a.text().startswith("SRT"))
    srt_action.trigger()
    srt = target.read_text()
    assert srt.startswith("1\n00:00:0") and " --> " in srt
    assert "sunny" in srt
    assert good_row.status.text() == f"Saved weather.srt in {target.parent}"

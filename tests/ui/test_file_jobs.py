"""The Files panel as a user sees it: rows scroll into view, the header counts what the rows say,
"Export all" writes one file per finished job without overwriting anything, and the open dialog
queues every file chosen. Real window, real tiny.en, real decoding and exporter."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

from earshot_testing import read_wav, write_wav
from gui_helpers import CLIPS, DATA, normalized, open_window
from modal_helpers import when, when_modal
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog, QLineEdit, QListView

from app.ui.export_all import ExportAllDialog

SPEECH = [name for name, clip in CLIPS.items() if clip["kind"] == "speech"]
ROW_WORD = {"Waiting": "waiting", "Reading": "transcribing", "Loading": "transcribing",
            "Transcribing": "transcribing", "Done": "done", "Cancelled": "cancelled"}
STAMP = re.compile(r"(\d\d):(\d\d):(\d\d),(\d\d\d)")


def _header_from_rows(panel) -> str:  # type: ignore[no-untyped-def]
    """What the header must say, counted from the rows' own status lines."""
    counts = Counter(ROW_WORD[row.status.text().split(" ")[0].rstrip("…")] for row in panel.rows.values())
    return " · ".join(f"{counts[w]} {w}" for w in ("transcribing", "waiting", "done", "cancelled") if counts[w])


def _fully_visible(panel, row) -> bool:  # type: ignore[no-untyped-def]
    viewport = panel.scroll_area.viewport()
    top_left = row.mapTo(viewport, QPoint(0, 0))
    return viewport.rect().contains(top_left) and viewport.rect().contains(top_left + QPoint(0, row.height() - 1))


def test_new_rows_scroll_into_view_and_the_header_counts_them(qtbot, parts) -> None:
    window = open_window(qtbot, parts)
    window.resize(900, 520)
    panel, jobs = window.jobs_panel, window.controller.jobs

    added = jobs.add([DATA / name for name in SPEECH])  # 6 rows: more than the panel shows
    last = panel.rows[added[-1].id]

    first = panel.rows[added[0].id]
    # The newest row in full view, the oldest scrolled out of it (rows laid out at full height).
    qtbot.waitUntil(lambda: last.height() >= last.sizeHint().height() and _fully_visible(panel, last)
                    and not _fully_visible(panel, first), timeout=10_000)
    assert panel.summary.text() == _header_from_rows(panel)
    assert "waiting" in panel.summary.text()
    qtbot.waitUntil(lambda: jobs.pending() == 0, timeout=600_000)
    assert panel.summary.text() == "6 done" == _header_from_rows(panel)


def _cut_clip(path: Path, seconds: float) -> Path:
    write_wav(path, read_wav(DATA / "espeak_meeting.wav")[: round(seconds * 16_000)])
    return path


def test_export_all_writes_one_file_per_job_and_overwrites_nothing(qtbot, parts, tmp_path: Path) -> None:
    sources = [tmp_path / "a" / "talk.wav", tmp_path / "b" / "talk.wav"]
    for source, name in zip(sources, ("espeak_meeting.wav", "espeak_weather.wav"), strict=True):
        source.parent.mkdir()
        shutil.copy(DATA / name, source)
    cut = _cut_clip(tmp_path / "cut.wav", 1.5)  # tiny.en times its last segment to 2.0 s here
    out = tmp_path / "subtitles"
    out.mkdir()
    (out / "talk.srt").write_text("mine\n")
    window = open_window(qtbot, parts)
    panel, jobs = window.jobs_panel, window.controller.jobs

    jobs.add([*sources, cut])
    qtbot.waitUntil(lambda: jobs.pending() == 0, timeout=300_000)
    assert panel.export_all_button.isEnabled()

    def answer(dialog: ExportAllDialog) -> None:
        dialog.folder.setText(str(out))
        dialog.format.setCurrentIndex(dialog.format.findText("SRT"))
        dialog.buttons.button(dialog.buttons.StandardButton.Save).click()

    when_modal(ExportAllDialog, answer)
    panel.export_all_button.click()

    assert sorted(p.name for p in out.iterdir()) == ["cut.srt", "talk-2.srt", "talk-3.srt", "talk.srt"]
    assert (out / "talk.srt").read_text() == "mine\n"
    assert "thursday" in normalized((out / "talk-2.srt").read_text())
    assert "sunny" in normalized((out / "talk-3.srt").read_text())
    ends = [int(h) * 3600 + int(m) * 60 + int(s) + int(ms) / 1000
            for h, m, s, ms in STAMP.findall((out / "cut.srt").read_text())[1::2]]
    assert ends and max(ends) <= 1.5, ends  # the last cue ends with the audio, not after it
    texts = [row.status.text() for row in panel.rows.values()]
    assert texts == [f"Saved {n} in {out}" for n in ("talk-2.srt", "talk-3.srt", "cut.srt")]


def test_the_open_dialog_queues_every_chosen_file(qtbot, parts, tmp_path: Path) -> None:
    for name in ("a.wav", "b.wav"):
        shutil.copy(DATA / "espeak_weather.wav", tmp_path / name)
    shutil.copy(DATA / "espeak_meeting.wav", tmp_path / "memo")  # a recording saved without an extension
    window = open_window(qtbot, parts)

    def choose(dialog: QFileDialog) -> None:
        dialog.setDirectory(str(tmp_path))
        files = dialog.findChild(QListView, "listView")
        when(lambda: files.model().rowCount(files.rootIndex()) >= 2, lambda _: pick(dialog))  # folder shown

    def pick(dialog: QFileDialog) -> None:
        name_field = dialog.findChild(QLineEdit, "fileNameEdit")
        name_field.setText('"a.wav" "b.wav" "memo"')  # as ctrl-clicking the three fills it in
        QTest.keyClick(name_field, Qt.Key.Key_Return)

    when_modal(QFileDialog, choose)
    window.open_files()

    rows = window.jobs_panel.rows.values()
    assert [row.name.text() for row in rows] == ["a.wav", "b.wav", "memo"]
    jobs = window.controller.jobs
    qtbot.waitUntil(lambda: jobs.pending() == 0, timeout=300_000)
    memo = next(job for job in jobs.jobs.values() if job.path.name == "memo")
    assert memo.transcript is not None
    assert normalized(memo.transcript.text) == normalized(CLIPS["espeak_meeting.wav"]["text"])

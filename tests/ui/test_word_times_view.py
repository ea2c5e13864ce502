"""A finished file job: its result view shows a clicked word's time, and the Export menu writes
readable word-timed subtitles by default, one cue per segment when asked. Real engine (tiny.en),
real widgets, the real exporter."""

from __future__ import annotations

import json
import re
from pathlib import Path

from gui_helpers import DATA, open_window
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication
from test_file_drop import drop_files

from app.ui.widgets import TextViewer

WORDS = json.loads((DATA / "espeak_words.json").read_text(encoding="utf-8"))["words"]


def test_click_a_word_to_see_its_time_and_export_readable_cues(qtbot, parts, tmp_path: Path) -> None:
    window = open_window(qtbot, parts)
    drop_files(window, [DATA / "espeak_words.wav"])
    jobs = window.controller.jobs
    qtbot.waitUntil(lambda: len(jobs.jobs) == 1 and jobs.pending() == 0, timeout=300_000)
    (job_id,) = jobs.jobs
    row = window.jobs_panel.rows[job_id]

    row.open_button.click()
    viewer = next(w for w in QApplication.topLevelWidgets() if isinstance(w, TextViewer) and w.isVisible())
    text = viewer.text.toPlainText()
    assert "Maria" in text and viewer.word_time.isVisible()
    cursor = viewer.text.textCursor()
    cursor.setPosition(text.index("Maria") + 2)  # where a click inside the word puts the cursor
    viewer.text.setTextCursor(cursor)
    shown = viewer.word_time.text()
    assert shown.startswith("“Maria”"), shown
    start = float(re.search(r"0:(\d\d\.\d\d\d) –", shown).group(1))
    truth = next(w for w in WORDS if w["word"] == "Maria")["start"]
    assert abs(start - truth) <= 0.1, (start, truth)
    viewer.text.moveCursor(QTextCursor.MoveOperation.End)
    assert viewer.word_time.text().startswith("“tomorrow.”")
    viewer.close()

    menu_texts = [a.text() for a in row.export_button.menu().actions()]
    assert "One cue per segment (SRT, VTT)" in menu_texts and not row.segment_cues.isChecked()
    cues = _exported_lines(window, row, tmp_path / "readable.vtt")  # the default: readable cues
    assert " ".join(" ".join(lines) for lines in cues) == text
    assert all(len(lines) <= 2 and all(len(line) <= 42 for line in lines) for lines in cues)
    assert sum(len(lines) for lines in cues) >= 2
    row.segment_cues.setChecked(True)
    assert not row.highlight_words.isEnabled()  # underlining words needs readable cues
    assert _exported_lines(window, row, tmp_path / "plain.vtt") == [[text]]  # one cue per segment, 75 chars


def _exported_lines(window, row, target: Path) -> list[list[str]]:  # type: ignore[no-untyped-def]
    """Export VTT from the row's menu to `target`; the lines of each cue."""
    window.jobs_panel.save_as = lambda _parent, _suggested, fmt: str(target) if fmt == "vtt" else ""
    next(a for a in row.export_button.menu().actions() if a.text().startswith("VTT")).trigger()
    bodies = re.findall(r"-->.*\n((?:.+\n?)+)", target.read_text(encoding="utf-8"))
    return [body.strip().split("\n") for body in bodies]

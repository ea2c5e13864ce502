"""The History panel as the user works with it: entries named by their first words, renamed and
edited, the search match highlighted, entries exported again with their times, a context menu
and the Delete key, previews and long names that stay readable. Real widgets and a real history
file; the dialogs that would block (file chooser, questions) are answered by the test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFontMetrics, QPalette

from app.history.store import EntryKind, HistoryStore, TimedText
from app.ui.history_delegate import preview_lines, title_line
from app.ui.history_panel import HistoryPanel

MEETING = "Please move the meeting to Thursday afternoon and invite the whole team. Then we talk about the budget."
LONG_NAME = "a very long recording file name from the meeting of the board 2026-11-30.wav"
FILE_TEXT = "Good morning everyone. Today we will review the budget."
TIMES = (TimedText(0.3, 1.9, "Good morning everyone."), TimedText(2.2, 5.05, "Today we will review the budget."))


@pytest.fixture
def panel(qtbot, tmp_path: Path) -> HistoryPanel:
    history = HistoryStore(tmp_path / "history.sqlite3")
    history.create(EntryKind.FILE, LONG_NAME, "/recordings/board.wav", FILE_TEXT, TIMES)
    dictation = history.create(EntryKind.DICTATION, "")
    history.append(dictation, MEETING)
    widget = HistoryPanel(history)
    qtbot.addWidget(widget)
    widget.resize(300, 420)  # the dock's default width
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def select(panel: HistoryPanel, starting: str) -> None:
    row = next(i for i in range(panel.list.count()) if panel.list.item(i).text().startswith(starting))
    panel.list.setCurrentRow(row)


def test_an_entry_is_named_by_its_first_words_and_can_be_renamed_and_edited(qtbot, panel: HistoryPanel) -> None:
    assert panel.list.item(0).text().startswith("Please move the meeting to Thursday… · Today")
    select(panel, "Please move")
    panel.ask_name = lambda _parent, current: "Thursday plan" if current.startswith("Please move") else None
    panel.rename_selected()
    assert panel.list.item(0).text().startswith("Thursday plan · Today")

    panel.open_selected()  # the entry opens in an editor: name and text
    editor = panel.editor
    assert editor is not None and editor.name.text() == "Thursday plan"
    editor.text.setPlainText(MEETING.replace("Thursday", "Friday"))
    editor.name.setText("Friday plan")
    editor.save_button.click()
    reopened = HistoryStore(panel.history.path)  # saved in the file, not just on screen
    [entry] = [e for e in reopened.search() if e.kind is EntryKind.DICTATION]
    assert (entry.name, entry.text) == ("Friday plan", MEETING.replace("Thursday", "Friday"))
    assert panel.list.item(0).text().startswith("Friday plan · Today")

    select(panel, "a very long")
    panel.ask_name = lambda _parent, _current: ""  # an empty name: back to the default, the file's name
    panel.rename_selected()
    assert panel.list.item(1).text().startswith("board.wav · Today")


def highlighted_pixels(panel: HistoryPanel) -> int:
    image = panel.list.viewport().grab().toImage()
    palette = panel.list.palette()
    mark, base = palette.color(QPalette.ColorRole.Highlight), palette.color(QPalette.ColorRole.Base)
    mix = [round(m * 90 / 255 + b * (1 - 90 / 255)) for m, b in
           ((mark.red(), base.red()), (mark.green(), base.green()), (mark.blue(), base.blue()))]
    count = 0
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            pixel = QColor(image.pixel(x, y))
            count += all(abs(a - b) <= 4 for a, b in zip((pixel.red(), pixel.green(), pixel.blue()), mix, strict=True))
    return count


def test_the_search_match_is_highlighted_in_the_list(qtbot, panel: HistoryPanel) -> None:
    assert highlighted_pixels(panel) == 0
    panel.search.setText("budget")  # both entries match: the same rows, now with marks
    panel.refresh()
    assert panel.list.count() == 2
    assert highlighted_pixels(panel) > 40


def test_an_entry_is_exported_again_with_its_times(qtbot, panel: HistoryPanel, tmp_path: Path) -> None:
    select(panel, "a very long")
    chosen: list[str] = []

    def answer(_parent, suggested: str, fmt: str) -> Path:
        chosen.append(suggested)
        return tmp_path / "out" / suggested

    panel.ask_export_path = answer
    written = {fmt: panel.export_selected(fmt) for fmt in ("txt", "srt", "vtt", "json")}
    assert chosen[0] == "a very long recording file name from the meeting of the board 2026-11-30.txt"
    # readable cues: the two short sentences, 0.3 s apart, share one cue of two lines, timed by
    # the entry's own times (the first one's start, the second one's end)
    srt = written["srt"].read_text()
    assert "00:00:00,300 --> 00:00:05,050\nGood morning everyone.\nToday we will review the budget." in srt
    vtt = written["vtt"].read_text()
    assert vtt.startswith("WEBVTT") and "00:00:00.300 --> 00:00:05.050" in vtt
    assert [s["start"] for s in json.loads(written["json"].read_text())["segments"]] == [0.3, 2.2]
    assert "Good morning everyone." in written["txt"].read_text()

    select(panel, "Please move")  # a dictation the user edited: its times no longer fit
    entry_id = panel.selected_id()
    panel.history.set_text(entry_id, "Edited by hand.")
    panel.history.add_segment(entry_id, TimedText(0.0, 3.0, MEETING))
    menu = panel.entry_menu()
    actions = {a.text(): a for a in menu.actions() if a.text()}
    assert actions["Export as TXT…"].isEnabled() and not actions["Export as SRT…"].isEnabled()
    assert "edited" in actions["Export as SRT…"].toolTip()
    assert panel.export_selected("txt").read_text().strip() == "Edited by hand."


def test_the_context_menu_and_the_delete_key_delete_the_entry_they_name(qtbot, panel: HistoryPanel) -> None:
    select(panel, "Please move")
    names = [a.text() for a in panel.entry_menu().actions() if a.text()]
    assert names == ["Open", "Rename…", "Export as TXT…", "Export as SRT…", "Export as VTT…",
                     "Export as JSON…", "Delete"]
    asked: list[str] = []
    panel.confirm_delete = lambda _parent, question: asked.append(question) or True
    panel.list.setFocus()
    qtbot.keyClick(panel.list, Qt.Key.Key_Delete)
    assert len(asked) == 1 and "“Please move the meeting to Thursday…”" in asked[0]
    assert [e.kind for e in panel.history.search()] == [EntryKind.FILE]
    assert panel.list.count() == 1


def test_previews_show_whole_sentences_and_a_long_file_name_keeps_its_time(qtbot, panel: HistoryPanel) -> None:
    width = panel.list.viewport().width() - 20  # the delegate's margins
    font = panel.list.font()
    shown = " ".join(preview_lines(MEETING, QFontMetrics(font), width, 3))
    assert shown.startswith("Please move the meeting to Thursday afternoon and invite the whole team.")
    bold = font
    bold.setBold(True)
    name, stamp = title_line(LONG_NAME, "Today 22:48", QFontMetrics(bold), width)
    assert stamp == "Today 22:48"  # whole, drawn right-aligned
    assert name.startswith("a very long") and name.endswith(".wav") and "…" in name
    assert QFontMetrics(bold).horizontalAdvance(f"{name}  {stamp}") <= width
    words, _ = title_line("Please move the meeting to Thursday…", "Today 22:48", QFontMetrics(bold), 200, file=False)
    assert words.startswith("Please move") and words.endswith("…")  # words are cut at the end

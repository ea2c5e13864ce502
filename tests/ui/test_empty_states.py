"""Empty states that teach: the first start names every way in (Record, files, folders, the
hotkey), the History says why it is empty (nothing yet, or nothing matches a search), and a
search hit deep in a long text shows the matched word in the entry's preview."""

from __future__ import annotations

from gui_helpers import open_window
from PySide6.QtGui import QFontMetrics

from app.history.store import EntryKind
from app.ui.history_delegate import PREVIEW_ROLE, EntryDelegate, preview_lines
from app.ui.main_window import MainWindow


def _hint_fits(window: MainWindow) -> None:
    hint = window.history_panel.hint
    viewport = window.history_panel.list.viewport()
    assert hint.isVisible()
    assert viewport.rect().contains(hint.geometry()), (hint.geometry(), viewport.rect())
    assert hint.heightForWidth(hint.width()) <= hint.height()  # every wrapped line shown


def _search(qtbot, window: MainWindow, query: str) -> None:
    window.history_panel.search.setText(query)
    qtbot.waitUntil(lambda: window.history_panel.delegate.query == query)


def test_the_first_start_names_every_way_in(qtbot, parts) -> None:
    window = open_window(qtbot, parts, load=False)
    steps = window.first_steps
    text = steps.text()
    for words in ("Record", "files", "folder", "ctrl+alt+space"):
        assert words in text, (words, text)
    assert steps.isVisible() and window.transcript.viewport().rect().contains(steps.geometry())
    assert steps.heightForWidth(steps.width()) <= steps.height()  # every line, not the first one only
    window.transcript.append_committed("Hello there.")
    assert not steps.isVisible()  # text arrived: the first steps make room
    assert window.history_panel.list.count() == 0
    hint = window.history_panel.hint.text()
    assert hint.startswith("No transcripts yet") and "ctrl+alt+space" in hint and "folder" in hint
    _hint_fits(window)


def test_a_search_without_a_match_says_so_and_a_match_hides_the_hint(qtbot, parts) -> None:
    parts.history.create(EntryKind.DICTATION, "Standup", text="We moved the release to Thursday.")
    window = open_window(qtbot, parts, load=False)
    assert window.history_panel.list.count() == 1 and not window.history_panel.hint.isVisible()
    _search(qtbot, window, "zebra")
    assert window.history_panel.list.count() == 0
    assert "No transcript contains “zebra”" in window.history_panel.hint.text()
    _hint_fits(window)
    _search(qtbot, window, "thursday")
    assert window.history_panel.list.count() == 1 and not window.history_panel.hint.isVisible()


def test_a_hit_deep_in_a_text_shows_the_matched_word(qtbot, parts) -> None:
    filler = " ".join(f"sentence {i} about the quarterly numbers." for i in range(120))
    parts.history.create(EntryKind.FILE, "board.wav", "/recordings/board.wav",
                         f"{filler} Then Grafana came up as the dashboard to use. {filler}")
    window = open_window(qtbot, parts, load=False)
    _search(qtbot, window, "grafana")
    panel = window.history_panel
    assert panel.list.count() == 1
    preview = str(panel.list.item(0).data(PREVIEW_ROLE))
    assert preview.startswith("… ") and "Grafana" in preview
    width = panel.list.visualItemRect(panel.list.item(0)).adjusted(10, 7, -10, -7).width()
    shown = preview_lines(preview, QFontMetrics(panel.list.font()), width, EntryDelegate.PREVIEW_LINES)
    assert any("Grafana" in line for line in shown), shown  # within the lines the entry draws

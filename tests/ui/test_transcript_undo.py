"""One slip destroys nothing: Ctrl+Z and Ctrl+Shift+Z undo and redo the user's own edits of the
live transcript (never the commits that arrived meanwhile), Clear can be undone, and the History
keeps the text as transcribed beside the edited one, with Revert.

Real window, real worker and tiny.en, espeak clips replayed as the microphone."""

from __future__ import annotations

from gui_helpers import CLIPS, DATA, normalized, open_window, wait_model_ready
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from test_dictation_text import wait_idle
from test_dictation_window import dictate

MEETING = DATA / "espeak_meeting.wav"
MEETING_WORDS = normalized(CLIPS["espeak_meeting.wav"]["text"])
MORNING = DATA / "espeak_morning.wav"
MORNING_WORDS = normalized(CLIPS["espeak_morning.wav"]["text"])


def window_after_a_dictation(qtbot, parts):  # type: ignore[no-untyped-def]
    """The real window with the model loaded and MEETING dictated into it: (window, its transcript
    view, the committed text)."""
    window = open_window(qtbot, parts)
    wait_model_ready(qtbot, window)
    dictate(qtbot, window, MEETING)
    wait_idle(qtbot, window)
    return window, window.transcript, window.transcript.committed_text


def stored_text(window, entry_id: int) -> str:
    entry = window.controller.history.get(entry_id)
    return entry.text if entry else ""


def test_select_all_and_a_typed_x_can_be_undone_in_the_window_and_the_history(qtbot, parts) -> None:
    window, view, dictated = window_after_a_dictation(qtbot, parts)
    [entry] = window.controller.history.search()
    assert not window.actions_["undo"].isEnabled()  # nothing of the user's to undo yet

    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(view, "x")  # the slip
    assert view.toPlainText() == "x"
    qtbot.waitUntil(lambda: stored_text(window, entry.id) == "x", timeout=5000)
    assert window.actions_["undo"].isEnabled()

    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert view.toPlainText() == dictated
    qtbot.waitUntil(lambda: stored_text(window, entry.id) == dictated, timeout=5000)
    assert window.actions_["redo"].isEnabled()
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert view.toPlainText() == "x"
    window.actions_["undo"].trigger()  # Edit > Undo edit does the same
    assert view.toPlainText() == dictated


def test_undo_takes_back_the_users_words_and_keeps_commits_that_arrived_since(qtbot, parts) -> None:
    window = open_window(qtbot, parts)
    wait_model_ready(qtbot, window)
    view = window.transcript
    dictate(qtbot, window, MEETING)
    wait_idle(qtbot, window)
    view.setFocus()
    view.moveCursor(QTextCursor.MoveOperation.Start)
    qtbot.keyClicks(view, "Note: ")
    dictate(qtbot, window, MORNING)  # new commits arrive after the edit
    wait_idle(qtbot, window)
    assert view.committed_text.startswith("Note: ")

    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # one step for the typed words

    one, two = view.committed_text.split("\n\n")
    assert normalized(one) == MEETING_WORDS and not one.startswith("Note")
    assert normalized(two) == MORNING_WORDS  # the second dictation is not undone
    first, second = sorted(window.controller.history.search(), key=lambda e: e.id)
    qtbot.waitUntil(lambda: stored_text(window, first.id) == one, timeout=5000)
    assert stored_text(window, second.id) == two


def test_clear_says_how_to_bring_the_text_back_and_undo_does(qtbot, parts) -> None:
    window, view, dictated = window_after_a_dictation(qtbot, parts)

    window.actions_["clear"].trigger()  # Ctrl+L
    assert view.toPlainText() == ""
    assert "Ctrl+Z brings it back" in window.statusBar().currentMessage()
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert view.committed_text == dictated
    assert not view.isReadOnly()
    qtbot.keyClicks(view, " More.")  # the restored text is editable and still saved to its entry
    [entry] = window.controller.history.search()
    qtbot.waitUntil(lambda: stored_text(window, entry.id) == dictated + " More.", timeout=5000)


def test_the_history_shows_the_transcribed_text_beside_the_edit_and_reverts_to_it(qtbot, parts) -> None:
    window, view, dictated = window_after_a_dictation(qtbot, parts)
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(view, "x")
    [entry] = window.controller.history.search()
    qtbot.waitUntil(lambda: stored_text(window, entry.id) == "x", timeout=5000)

    panel = window.history_panel
    panel.refresh()
    panel.list.setCurrentRow(0)
    assert panel.list.item(0).data(Qt.ItemDataRole.UserRole + 2).endswith("· edited")
    assert "Revert to the text as transcribed" in [a.text() for a in panel.entry_menu().actions()]
    panel.open_selected()
    editor = panel.editor
    assert editor is not None
    qtbot.waitExposed(editor)
    assert editor.text.toPlainText() == "x"
    assert editor.original.isVisible() and editor.original.toPlainText() == dictated
    assert editor.original.isReadOnly() and editor.revert_button.isVisible()
    editor.revert_button.click()
    assert editor.text.toPlainText() == dictated and not editor.original.isVisible()
    assert stored_text(window, entry.id) == dictated
    assert not panel.list.item(0).data(Qt.ItemDataRole.UserRole + 2).endswith("edited")

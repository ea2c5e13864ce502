"""The main window: shown before the model is ready, accessible, keyboard reachable; the
transcript view's committed/tentative styling and scrolling."""

from __future__ import annotations

from gui_helpers import open_window, wait_model_ready
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette, QTextCursor
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSlider,
    QAbstractSpinBox,
    QComboBox,
    QDockWidget,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QTextEdit,
    QToolBar,
    QWidget,
)

from app.controller.app_controller import AppController
from app.controller.states import ModelState, RecordState
from app.ui.main_window import MainWindow
from app.ui.settings_dialog import SettingsDialog
from app.ui.transcript_view import TranscriptView
from app.ui.tray import Tray

CONTROLS = (
    QAbstractButton, QComboBox, QLineEdit, QListWidget, QTextEdit, QPlainTextEdit,
    QAbstractSlider, QAbstractSpinBox,
)


def test_window_shows_before_the_model_is_loaded(qtbot, parts) -> None:
    window = open_window(qtbot, parts)
    assert window.isVisible() and window.windowTitle() == "Earshot"
    assert window.controller.models.state == ModelState.LOADING
    assert window.record_bar.title.text() == "Loading model…"
    assert window.status_line.model_label.text() == "Loading tiny.en…"
    wait_model_ready(qtbot, window)
    assert window.record_bar.title.text() == "Ready"
    assert window.record_bar.button.text() == "Record"
    assert window.status_line.model_label.text() == "Model tiny.en"
    assert window.status_line.provider_label.text() == "Runs on CPU"


def spoken_name(widget: QWidget) -> str:
    """What a screen reader announces: the accessible name, else a button's own text; a spin box's
    own line edit is announced with the spin box's name."""
    if widget.accessibleName():
        return widget.accessibleName()
    if isinstance(widget.parent(), QAbstractSpinBox):
        return spoken_name(widget.parent())
    return widget.text().replace("&", "") if isinstance(widget, QAbstractButton) else ""


def unnamed_controls(root: QWidget) -> list[str]:
    problems = []
    for widget in root.findChildren(QWidget):
        if not (isinstance(widget, CONTROLS) and widget.isVisibleTo(root) and widget.isEnabled()):
            continue
        if not spoken_name(widget):
            problems.append(f"{type(widget).__name__} {widget.objectName()!r} has no name")
        # toolbar and dock title buttons have keyboard shortcuts / menu entries instead of Tab
        has_shortcut = isinstance(widget, QAbstractButton) and isinstance(
            widget.parent(), QToolBar | QDockWidget)
        if not has_shortcut and not widget.focusPolicy() & Qt.FocusPolicy.TabFocus:
            problems.append(f"{spoken_name(widget)} is not reachable with Tab")
    return problems


def test_every_control_has_an_accessible_name(qtbot, parts) -> None:
    window = open_window(qtbot, parts, load=False)
    assert unnamed_controls(window) == []
    dialog = SettingsDialog(window.controller, window)
    qtbot.addWidget(dialog)
    dialog.show()
    assert unnamed_controls(dialog) == []


def test_record_shortcut_and_keyboard_focus(qtbot, parts) -> None:
    window = open_window(qtbot, parts, load=False)
    assert window.actions_["record"].shortcut().toString() == "Ctrl+R"
    assert window.record_bar.button.focusPolicy() & Qt.FocusPolicy.TabFocus
    window.record_bar.button.setFocus()
    qtbot.keyClick(window.record_bar.button, Qt.Key.Key_Space)
    # no model yet: pressing Record waits for it, visibly
    assert window.record_bar.title.text() == "Loading model…"


def test_transcript_styles_and_follows_new_text(qtbot) -> None:
    view = TranscriptView()
    qtbot.addWidget(view)
    view.resize(400, 200)
    view.show()
    view.append_committed(" Hello there,")
    view.set_tentative(" how are")
    assert view.toPlainText() == "Hello there, how are"
    cursor = QTextCursor(view.document())
    cursor.setPosition(len("Hello there, how"))
    assert cursor.charFormat().fontItalic()
    assert cursor.charFormat().foreground().color() == view.palette().color(QPalette.ColorRole.PlaceholderText)
    cursor.setPosition(3)
    assert not cursor.charFormat().fontItalic()
    view.append_committed(" how are you?")
    view.set_tentative("")
    assert view.toPlainText() == "Hello there, how are you?"

    bar = view.verticalScrollBar()
    for i in range(60):
        view.append_committed(f" Sentence number {i} goes on for a while.")
    assert bar.maximum() > 0 and bar.value() == bar.maximum()  # follows at the bottom
    bar.setValue(0)  # the user scrolled up to read
    view.append_committed(" More words arrive.")
    view.set_tentative(" and more")
    assert bar.value() == 0


def test_follows_a_dark_palette(qtbot, parts, qapp) -> None:
    window = open_window(qtbot, parts, load=False)
    light = qapp.palette()
    dark = QPalette(light)
    for role, colour in (
        (QPalette.ColorRole.Window, "#1f2023"), (QPalette.ColorRole.WindowText, "#e8e8ea"),
        (QPalette.ColorRole.Base, "#17181a"), (QPalette.ColorRole.Text, "#e8e8ea"),
        (QPalette.ColorRole.Button, "#2a2b2f"), (QPalette.ColorRole.ButtonText, "#e8e8ea"),
    ):
        dark.setColor(role, QColor(colour))
    try:
        qapp.setPalette(dark)
        qtbot.waitUntil(lambda: "#17181a" in qapp.styleSheet())
        window.transcript.append_committed("Dark text")
        cursor = QTextCursor(window.transcript.document())
        cursor.setPosition(2)
        assert cursor.charFormat().foreground().color() == QColor("#e8e8ea")
        pixmap = window.actions_["copy"].icon().pixmap(24, 24).toImage()
        drawn = [pixmap.pixelColor(x, y) for x in range(24) for y in range(24)]
        assert any(c.alpha() > 200 and c.lightness() > 180 for c in drawn), "icons stayed dark"
    finally:
        qapp.setPalette(light)


def test_tray_shows_state_and_toggles_recording(qtbot, parts) -> None:
    tray = Tray()
    window = MainWindow(AppController(parts), tray)
    qtbot.addWidget(window)
    tray.record_action.trigger()  # Start dictation from the tray before any model: it waits
    assert window.controller.dictation.state == RecordState.LOADING_MODEL
    assert "loading model" in tray.icon.toolTip()
    assert tray.record_action.text() == "Start dictation"
    tray.set_state(RecordState.LISTENING, "")
    assert tray.record_action.text() == "Stop dictation"
    window.hide()
    tray.show_window.emit()
    assert window.isVisible()


def test_a_model_that_cannot_load_is_a_clear_error(qtbot, parts) -> None:
    settings = parts.settings_store.load().settings
    settings.model.name = "large-v3-not-installed"
    parts.settings_store.save(settings)
    window = open_window(qtbot, parts)
    models = window.controller.models
    qtbot.waitUntil(lambda: models.state == ModelState.FAILED, timeout=60_000)
    assert window.record_bar.title.text() == "Something went wrong"
    assert "large-v3-not-installed" in window.record_bar.detail.text()
    assert "Settings" in window.record_bar.detail.text()  # what to do about it
    assert window.status_line.model_label.text() == "No model loaded"
    window.record_bar.button.click()
    assert window.controller.dictation.state == RecordState.ERROR
    assert window.actions_["settings"].isEnabled()

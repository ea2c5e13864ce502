"""Keyboard use of the main window: Tab starts at Record and follows the window, the toolbar is
reachable, and the focus ring stands out (3:1 or more, WCAG's figure for focus indicators) in the
light and the dark theme; the theme setting recolours the window at once."""

from __future__ import annotations

import tomllib

from gui_helpers import contrast, open_window
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QToolBar, QWidget

from app.ui.main_window import MainWindow
from app.ui.settings_dialog import SettingsDialog

TOOLBAR = ["Open files", "Copy all", "Save transcript as", "Clear transcript", "History", "Settings"]


def is_dark(palette: QPalette) -> bool:
    """What a user sees as a dark window (the app has no such helper: it only applies themes)."""
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def _tab_through(qtbot, window: MainWindow, steps: int = 30) -> list[str]:
    seen = []
    for _ in range(steps):
        widget = QApplication.focusWidget()
        assert widget is not None
        seen.append(widget.accessibleName() or type(widget).__name__)
        qtbot.keyClick(widget, Qt.Key.Key_Tab)
    return seen


def test_tab_starts_at_record_and_reaches_the_toolbar(qtbot, parts) -> None:
    window = open_window(qtbot, parts, load=False)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.record_bar.button)
    seen = _tab_through(qtbot, window)
    assert seen[:2] == ["Record", "Input device"]
    cycle = seen[: seen.index("Record", 1)]  # one round, back at Record
    assert [name for name in cycle if name in TOOLBAR] == TOOLBAR  # left to right
    assert cycle.index("Search history") < cycle.index("Open files")  # the window, then the toolbar
    assert cycle.index("Transcript") < cycle.index("Search history")  # left pane, then the History


def ring_pixels(widget: QWidget, elsewhere: QWidget) -> int:
    """Pixels that focus changes by a contrast of 3:1 or more: the ring a user can see."""
    elsewhere.setFocus(Qt.FocusReason.TabFocusReason)
    QApplication.processEvents()
    assert not widget.hasFocus()
    before = widget.grab().toImage()
    widget.setFocus(Qt.FocusReason.TabFocusReason)
    QApplication.processEvents()
    after = widget.grab().toImage()
    assert widget.hasFocus()
    return sum(1 for x in range(after.width()) for y in range(after.height())
               if contrast(after.pixelColor(x, y), before.pixelColor(x, y)) >= 3.0)


def _focus_rings(window: MainWindow) -> dict[str, int]:
    toolbar = window.findChild(QToolBar, "mainToolbar")
    open_button = toolbar.widgetForAction(window.actions_["open"])
    widgets = {"Record": window.record_bar.button, "Input device": window.record_bar.devices,
               "Open files": open_button}
    return {name: ring_pixels(widget, window.transcript) for name, widget in widgets.items()}


def test_the_focus_ring_is_visible_in_both_themes(qtbot, parts) -> None:
    window = open_window(qtbot, parts, load=False)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.record_bar.button)
    app = QApplication.instance()
    try:
        for theme in ("light", "dark"):
            settings = window.controller.settings.__class__()
            settings.window.theme = theme
            window.controller.apply_settings(settings)
            assert is_dark(app.palette()) == (theme == "dark")
            rings = _focus_rings(window)
            assert all(count >= 60 for count in rings.values()), (theme, rings)  # a ring, not a dot
    finally:
        window.controller.apply_settings(window.controller.settings.__class__())


def test_the_theme_choice_recolours_the_window_and_is_saved(qtbot, parts) -> None:
    window = open_window(qtbot, parts, load=False)
    app = QApplication.instance()
    started = QPalette(app.palette())
    dialog = SettingsDialog(window.controller, window)
    qtbot.addWidget(dialog)
    assert [dialog.theme.itemText(i) for i in range(dialog.theme.count())] == ["Like the desktop", "Light", "Dark"]
    try:
        dialog.theme.setCurrentIndex(dialog.theme.findData("dark"))
        dialog.apply_button.click()
        assert is_dark(app.palette()) and is_dark(window.palette())
        assert tomllib.loads(parts.settings_store.path.read_text())["window"]["theme"] == "dark"
        dialog.theme.setCurrentIndex(dialog.theme.findData("system"))
        dialog.apply_button.click()
        assert app.palette().color(QPalette.ColorRole.Window) == started.color(QPalette.ColorRole.Window)
    finally:
        window.controller.apply_settings(window.controller.settings.__class__())

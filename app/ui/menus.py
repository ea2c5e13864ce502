"""Menus, the toolbar and keyboard shortcuts of the main window."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QAction, QKeySequence, QPalette
from PySide6.QtWidgets import QDockWidget, QMainWindow, QSizePolicy, QToolBar, QWidget

from app.controller.app_controller import AppController
from app.ui.help_dialogs import show_about, show_shortcuts, show_spoken_commands
from app.ui.icons import icon
from app.ui.window_fit import ToolbarFit

Slot = Callable[[], object]


@dataclass(frozen=True)
class WindowCommands:
    """What the window's own actions call; the dictation actions go to the controller."""

    open_files: Slot
    open_folder: Slot
    save_transcript_as: Slot
    open_settings: Slot
    quit: Slot
    copy_all: Slot
    clear_transcript: Slot
    history_dock: QDockWidget
    undo_edit: Slot
    redo_edit: Slot


def build_menus(window: QMainWindow, commands: WindowCommands, c: AppController) -> dict[str, QAction]:
    """Create every action once; menus and the toolbar share them. Returns them by name."""
    color = window.palette().color(QPalette.ColorRole.ButtonText)

    def action(
        key: str, text: str, slot: object, shortcut: str | QKeySequence.StandardKey = "", icon_name: str = ""
    ) -> QAction:
        act = QAction(text, window)
        if icon_name:
            act.setIcon(icon(icon_name, color))
            act.setProperty("iconName", icon_name)
        if shortcut:
            act.setShortcut(QKeySequence(shortcut))
        act.triggered.connect(slot)
        actions[key] = act
        return act

    actions: dict[str, QAction] = {}
    action("open", "&Open files…", commands.open_files, QKeySequence.StandardKey.Open, "open")
    action("open_folder", "Open &folder…", commands.open_folder, "Ctrl+Shift+O")
    action("save", "&Save transcript as…", commands.save_transcript_as, "Ctrl+S", "save")
    action("settings", "Se&ttings…", commands.open_settings, "Ctrl+,", "settings")
    action("quit", "&Quit", commands.quit, "Ctrl+Q")
    action("copy", "&Copy all", commands.copy_all, "Ctrl+Shift+C", "copy")
    action("clear", "C&lear transcript", commands.clear_transcript, "Ctrl+L", "clear")
    # the transcript handles the keys itself (only its own edits are undone); the menu shows them
    action("undo", "&Undo edit\tCtrl+Z", commands.undo_edit)
    action("redo", "&Redo edit\tCtrl+Shift+Z", commands.redo_edit)
    action("record", "&Record", c.dictation.toggle, "Ctrl+R", "mic")
    action("cancel", "&Discard current utterance", c.dictation.cancel, "Ctrl+Shift+R")
    action("about", "&About Earshot", lambda: show_about(window))
    action("shortcuts", "&Keyboard shortcuts", lambda: show_shortcuts(window, actions, c.settings.output.hotkey), "F1")
    action("spoken", "&Spoken commands", lambda: show_spoken_commands(window, c.settings.output.spoken_punctuation))
    history = commands.history_dock.toggleViewAction()
    history.setText("&History")
    history.setShortcut(QKeySequence("Ctrl+H"))
    history.setIcon(icon("history", color))
    history.setProperty("iconName", "history")
    actions["history"] = history

    _menubar(window, actions)
    _toolbar(window, actions)
    return actions


def _menubar(window: QMainWindow, actions: dict[str, QAction]) -> None:
    bar = window.menuBar()
    file_menu = bar.addMenu("&File")
    file_menu.addActions([actions["open"], actions["open_folder"], actions["save"]])
    file_menu.addSeparator()
    file_menu.addActions([actions["settings"], actions["quit"]])
    bar.addMenu("&Edit").addActions([actions["undo"], actions["redo"], actions["copy"], actions["clear"]])
    bar.addMenu("&Dictation").addActions([actions["record"], actions["cancel"]])
    bar.addMenu("&View").addAction(actions["history"])
    help_menu = bar.addMenu("&Help")
    help_menu.addActions([actions["shortcuts"], actions["spoken"]])
    help_menu.addSeparator()
    help_menu.addAction(actions["about"])


def _toolbar(window: QMainWindow, actions: dict[str, QAction]) -> None:
    toolbar = QToolBar("Main", window)
    toolbar.setObjectName("mainToolbar")
    toolbar.setMovable(False)
    toolbar.setIconSize(QSize(18, 18))
    toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    toolbar.setAccessibleName("Main toolbar")
    toolbar.addActions([actions["open"], actions["copy"], actions["save"], actions["clear"]])
    spacer = QWidget(toolbar)
    spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
    toolbar.addWidget(spacer)
    toolbar.addActions([actions["history"], actions["settings"]])
    for act in toolbar.actions():
        widget = toolbar.widgetForAction(act)
        if widget is not None and act.text():
            widget.setAccessibleName(act.text().replace("&", "").rstrip("…"))
    window.addToolBar(Qt.ToolBarArea.TopToolBarArea, toolbar)
    ToolbarFit(toolbar)


def retint_icons(window: QWidget, actions: Mapping[str, QAction]) -> None:
    """Redraw the action icons in the current palette's text colour (after a theme switch)."""
    color = window.palette().color(QPalette.ColorRole.ButtonText)
    for act in actions.values():
        name = act.property("iconName")
        if name:
            act.setIcon(icon(str(name), color))

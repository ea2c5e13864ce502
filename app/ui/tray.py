"""The tray icon: shows the recording state; record toggle, show window, quit."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QSystemTrayIcon

from app.controller.states import RecordState
from app.ui.icons import icon

TRAY_ICON = {
    RecordState.IDLE: "tray-idle",
    RecordState.LOADING_MODEL: "tray-busy",
    RecordState.LISTENING: "tray-listening",
    RecordState.HEARING_SPEECH: "tray-listening",
    RecordState.FINISHING: "tray-busy",
    RecordState.ERROR: "tray-error",
}


STILL_RUNNING_TITLE = "Earshot is still running"
STILL_RUNNING_TEXT = (
    "It is here in the tray, so the global hotkey still works. Click the icon to open the "
    "window; quit from its menu. In Settings, closing the window can quit instead."
)


class Tray(QObject):
    """The system tray icon and its menu: record/stop, show the window, quit."""

    toggle_record = Signal()
    show_window = Signal()
    quit_requested = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.available = QSystemTrayIcon.isSystemTrayAvailable()
        self.last_message: tuple[str, str] | None = None
        self.icon = QSystemTrayIcon(icon("tray-idle"), self)
        menu = QMenu()
        self.record_action = QAction("Start dictation", menu)
        self.record_action.triggered.connect(self.toggle_record)
        show = QAction("Show Earshot", menu)
        show.triggered.connect(self.show_window)
        quit_action = QAction("Quit", menu)
        quit_action.triggered.connect(self.quit_requested)
        menu.addActions([self.record_action, show])
        menu.addSeparator()
        menu.addAction(quit_action)
        self._menu = menu
        self.icon.setContextMenu(menu)
        self.icon.activated.connect(self._on_activated)
        self.set_state(RecordState.IDLE, "")
        if self.available:
            self.icon.show()

    def say_still_running(self) -> None:
        """The tray balloon after the window is closed to the tray (also kept in `last_message`)."""
        self.last_message = (STILL_RUNNING_TITLE, STILL_RUNNING_TEXT)
        self.icon.showMessage(STILL_RUNNING_TITLE, STILL_RUNNING_TEXT, QSystemTrayIcon.MessageIcon.Information, 8000)

    def set_state(self, state: RecordState, reason: str) -> None:
        self.icon.setIcon(icon(TRAY_ICON[state]))
        self.icon.setToolTip(f"Earshot — {reason or state.value}")
        active = state.is_active or state == RecordState.FINISHING
        self.record_action.setText("Stop dictation" if active else "Start dictation")

    def _on_activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason == QSystemTrayIcon.ActivationReason.Trigger:
            self.show_window.emit()

"""Run something once a window has painted its first frame (start-up work that can wait for it)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget


class _FirstExpose(QObject):
    """Watches the window's QWindow: Qt paints a widget window while it handles its first
    expose event, so a call queued from there runs once that frame is drawn."""

    def __init__(self, window: QWidget, callback: Callable[[], None]) -> None:
        super().__init__(window)
        self._callback = callback
        self._handle = window.windowHandle()
        assert self._handle is not None
        self._handle.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Expose and self._handle.isExposed():
            self._handle.removeEventFilter(self)
            QTimer.singleShot(0, self._callback)  # after the paint this expose event triggers
            self.deleteLater()
        return False


def after_first_paint(window: QWidget, callback: Callable[[], None]) -> None:
    """Call `callback` (on the GUI thread) once `window` has painted its first frame; at once
    when it is not shown (started in the tray) or already on screen."""
    handle = window.windowHandle()
    if not window.isVisible() or handle is None or handle.isExposed():
        callback()
        return
    _FirstExpose(window, callback)

"""Wires the record bar's "Test microphone" button to the controller's `MicrophoneTest`: the
meter shows the tested microphone's level, the button follows whether a test runs, a microphone
that does not open is one quiet line, and hiding the window (to the tray, minimised) ends the test.
Recording and choosing another microphone are handled in the controller (the test closes first,
or goes on with the new choice)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSignalBlocker
from PySide6.QtWidgets import QWidget

from app.controller.microphone_test import MicrophoneTest
from app.ui.record_bar import RecordBar

HIDDEN = (QEvent.Type.Hide, QEvent.Type.WindowStateChange)


class MicrophoneCheck(QObject):
    """Owned by the window; `chosen()` is the menu's microphone (None = the system default)."""

    def __init__(self, window: QWidget, bar: RecordBar, test: MicrophoneTest) -> None:
        super().__init__(window)
        self._window, self._bar, self._test = window, bar, test
        bar.test_button.toggled.connect(self._toggled)
        test.running_changed.connect(self._show_running)
        test.level.connect(bar.meter.set_level)
        test.problem.connect(bar.show_microphone_problem)
        window.installEventFilter(self)

    def _toggled(self, on: bool) -> None:
        if on:
            self._test.start(self._bar.devices.currentData())
        else:
            self._test.stop()

    def _show_running(self, running: bool) -> None:
        with QSignalBlocker(self._bar.test_button):
            self._bar.test_button.setChecked(running)
        self._bar.test_button.setAccessibleDescription("on" if running else "off")

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            watched is self._window
            and event.type() in HIDDEN
            and (not self._window.isVisible() or self._window.isMinimized())
        ):
            self._test.stop()  # nobody looks at the meter: let the microphone go
        return False

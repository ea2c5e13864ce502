"""The record bar's list of microphones, kept current for the main window: listed once the window
has painted its first frame (PortAudio, with NumPy and the sound server's names, would otherwise
delay that frame), listed again on each later show, and followed while the window is visible
(microphones come and go)."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from app.controller.app_controller import AppController
from app.controller.ports import Microphone
from app.ui.device_watcher import DeviceWatcher
from app.ui.first_paint import after_first_paint
from app.ui.record_bar import RecordBar


class MicrophoneList(QObject):
    """Fills `record_bar`'s microphones from `controller.input_devices`; `window` calls `shown`
    from its show event and stops `watcher` when it hides or closes."""

    def __init__(self, window: QWidget, record_bar: RecordBar, controller: AppController) -> None:
        super().__init__(window)
        self._window = window
        self._record_bar = record_bar
        self._controller = controller
        self.listed = False  # PortAudio is asked once the window has painted (`shown`)
        self._after_paint = False
        self.watcher = DeviceWatcher(controller.input_devices, parent=window)  # microphones come and go
        self.watcher.changed.connect(self.show_devices)

    def shown(self) -> None:
        """The first show lists the input devices once the window has painted; a later one at once."""
        if not (self.listed or self._after_paint):
            self._after_paint = True
            after_first_paint(self._window, self.refresh)
        elif self.listed:
            self.refresh()

    def refresh(self, rescan: bool = False) -> None:
        """List the devices (`rescan`: ask PortAudio afresh) and follow them while the window shows."""
        self.listed = True
        devices = self._controller.input_devices(rescan)
        self.show_devices(devices)
        if self._window.isVisible():
            self.watcher.start(devices)

    def show_devices(self, devices: list[Microphone]) -> None:
        self._record_bar.set_devices(devices, self._controller.settings.dictation.input_device)

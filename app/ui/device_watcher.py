"""Follows microphones as they are plugged in and out: the list is read again every
`interval_ms` on a worker thread (asking the sound server, or re-enumerating PortAudio where
there is none, which the audio layer refuses while recording), and `changed` carries it to the
GUI thread when it differs from the last one.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal

from app.controller.ports import Microphone

POLL_MS = 2000
"""Between two looks: a plugged-in headset shows up within this, and a look costs one `pactl`
call (a few milliseconds) or one PortAudio enumeration."""

log = logging.getLogger(__name__)


class DeviceWatcher(QObject):
    """Calls `lister(True)` off the GUI thread every `interval_ms`; emits `changed(list[Microphone])`."""

    changed = Signal(list)

    def __init__(
        self, lister: Callable[[bool], list[Microphone]], interval_ms: int = POLL_MS, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._lister = lister
        self._last: list[Microphone] | None = None
        self._busy = threading.Lock()
        self._stopped = threading.Event()
        self._timer = QTimer(self, interval=interval_ms)
        self._timer.timeout.connect(self.look_now)

    def start(self, known: list[Microphone]) -> None:
        """Look every interval from now on; `known` is the list the window shows already."""
        self._last = list(known)
        self._stopped.clear()
        self._timer.start()

    def stop(self) -> None:
        self._stopped.set()
        self._timer.stop()

    @property
    def running(self) -> bool:
        return self._timer.isActive()

    def look_now(self) -> None:
        """Start one look on a worker thread, unless the previous one is still running."""
        if self._stopped.is_set() or not self._busy.acquire(blocking=False):
            return
        threading.Thread(target=self._look, name="earshot-device-watch", daemon=True).start()

    def _look(self) -> None:
        try:
            devices = self._lister(True)
            if devices != self._last and not self._stopped.is_set():
                self._last = devices
                self.changed.emit(devices)
        except Exception:  # a failed look is retried at the next tick; the old list stays
            log.exception("Could not list the microphones")
        finally:
            self._busy.release()

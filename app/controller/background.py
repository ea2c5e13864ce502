"""Run one slow call (a model import, a folder scan) off the GUI thread."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal

log = logging.getLogger(__name__)


class BackgroundCall(QObject):
    """`BackgroundCall(fn).start()`: `succeeded(result)` or `failed(message)` on the GUI thread."""

    succeeded = Signal(object)
    failed = Signal(str)
    _done = Signal(object, str)

    def __init__(self, fn: Callable[[], Any], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._fn = fn
        self._done.connect(self._finish, Qt.ConnectionType.QueuedConnection)
        self.running = False
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self.running = True
        self._thread = threading.Thread(target=self._run, name="earshot-background", daemon=True)
        self._thread.start()

    def wait(self, timeout_s: float) -> bool:
        """Block until the call last started has returned (at quit, when its result is no longer
        delivered); False when it still runs after `timeout_s`."""
        if self._thread is None:
            return True
        self._thread.join(timeout_s)
        return not self._thread.is_alive()

    def _run(self) -> None:
        try:
            result, error = self._fn(), ""
        except Exception as exc:  # reported to the user by whoever listens
            log.exception("background task failed")
            result, error = None, str(exc) or type(exc).__name__
        self._done.emit(result, error)

    def _finish(self, result: object, error: str) -> None:
        self.running = False
        if error:
            self.failed.emit(error)
        else:
            self.succeeded.emit(result)

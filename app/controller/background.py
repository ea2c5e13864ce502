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

    def start(self) -> None:
        self.running = True
        threading.Thread(target=self._run, name="earshot-background", daemon=True).start()

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

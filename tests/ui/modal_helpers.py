"""Answering a modal dialog the way a user would: a timer waits until the dialog is up (its
exec() blocks the test), then types into and clicks its real widgets."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QWidget


def when_modal(kind: type[QWidget], answer: Callable[[QWidget], None], timeout_ms: int = 20_000) -> QTimer:
    """Run `answer(dialog)` once a modal `kind` is the active modal widget (polled every 50 ms).

    Returns the timer (keep a reference until the dialog is answered). A dialog that never comes
    stops the polling after `timeout_ms`, so a broken test fails instead of hanging.
    """
    timer = QTimer()
    timer.setInterval(50)
    waited = [0]

    def poll() -> None:
        waited[0] += 50
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, kind) and dialog.isVisible():
            timer.stop()
            answer(dialog)
        elif waited[0] > timeout_ms:
            timer.stop()

    timer.timeout.connect(poll)
    timer.start()
    return timer

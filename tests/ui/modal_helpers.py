"""Answering a modal dialog the way a user would: a timer waits until the dialog is up (its
exec() blocks the test), then types into and clicks its real widgets."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QWidget

_alive: list[QTimer] = []  # polling timers, kept until they fire or give up


def when(found: Callable[[], Any], act: Callable[[Any], None], timeout_ms: int = 20_000) -> None:
    """Run `act(value)` once `found()` returns a truthy value (polled every 50 ms by the event
    loop, also while a modal dialog's exec() runs). Gives up after `timeout_ms`, so a dialog that
    never comes fails the test instead of hanging it."""
    timer = QTimer()
    timer.setInterval(50)
    waited = [0]

    def poll() -> None:
        waited[0] += 50
        value = found()
        if value or waited[0] > timeout_ms:
            timer.stop()
            _alive.remove(timer)
            if value:
                act(value)

    timer.timeout.connect(poll)
    _alive.append(timer)
    timer.start()


def when_modal(kind: type[QWidget], answer: Callable[[Any], None], timeout_ms: int = 20_000) -> None:
    """Run `answer(dialog)` once a modal `kind` is up."""
    def modal() -> QWidget | None:
        dialog = QApplication.activeModalWidget()
        return dialog if isinstance(dialog, kind) and dialog.isVisible() else None

    when(modal, answer, timeout_ms)

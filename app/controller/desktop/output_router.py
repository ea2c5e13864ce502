"""Sends committed dictation text to the focused window (typed or pasted).

The text arrives post-processed by the dictation controller (the same text the window shows
and the history stores); `OutputOptions.postprocess` are the rules the controller applies.
Tentative text never comes here: only committed deltas, utterance ends and session ends.
While the global hotkey is held the keyboard is grabbed by Earshot, so output waits until it
is released (`set_held`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QGuiApplication

from app.controller.desktop.clipboard_paste import ClipboardPaster
from app.desktop.typing import OutputMode, OutputWorker
from app.dictation.postprocess import PostProcessOptions


@dataclass(frozen=True)
class OutputOptions:
    """Where committed text goes (`mode`) and how it is cleaned up first (`postprocess`)."""

    mode: OutputMode = OutputMode.WINDOW
    postprocess: PostProcessOptions = field(default_factory=PostProcessOptions)
    """Applied once by the dictation controller, before the text is shown, stored and output."""


class OutputRouter(QObject):
    """`error` carries a user-facing message (once per session) when text could not be delivered."""

    error = Signal(str)
    _worker_error = Signal(str)

    def __init__(
        self,
        options: OutputOptions | None = None,
        worker_factory: Callable[[Callable[[str], None]], OutputWorker] = OutputWorker,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.options = options or OutputOptions()
        self._worker = worker_factory(self._worker_error.emit)
        self._paster: ClipboardPaster | None = None
        self._held = False
        self._waiting = ""  # text held back while the hotkey is down
        self._reported = False
        self._worker_error.connect(self._report, Qt.ConnectionType.QueuedConnection)

    @property
    def mode(self) -> OutputMode:
        return self.options.mode

    def set_options(self, options: OutputOptions) -> None:
        """Applies from the next session on (a session's text keeps one set of rules)."""
        self.options = options

    def session_started(self) -> None:
        self._reported = False

    def committed(self, delta: str) -> None:
        """`delta`: post-processed committed text, output as it is."""
        self._deliver(delta)

    def utterance_ended(self) -> None:
        """Nothing is held back here (the controller's post-processor flushes the utterance)."""

    def session_ended(self) -> None:
        self.utterance_ended()

    def set_held(self, held: bool) -> None:
        self._held = held
        if not held and self._waiting:
            text, self._waiting = self._waiting, ""
            self._deliver(text)

    @property
    def paster(self) -> ClipboardPaster:
        if self._paster is None:
            self._paster = ClipboardPaster(self._worker, QGuiApplication.clipboard(), parent=self)
        return self._paster

    def wait_idle(self, timeout: float) -> bool:
        """For tests and shutdown: block until queued typing is done (not paste restores)."""
        return self._worker.wait_idle(timeout)

    def shutdown(self) -> None:
        self._worker.close()

    def _deliver(self, text: str) -> None:
        if not text or self.options.mode is OutputMode.WINDOW:
            return
        if QGuiApplication.focusWindow() is not None:
            return  # Earshot's own window has the focus: the text is shown there already
        if self._held:
            self._waiting += text
        elif self.options.mode is OutputMode.TYPE:
            self._worker.type_text(text)
        else:
            self.paster.paste(text)

    def _report(self, message: str) -> None:
        if not self._reported:
            self._reported = True
            self.error.emit(message)

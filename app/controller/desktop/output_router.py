"""Sends committed dictation text to the focused window (typed or pasted).

The text arrives post-processed by the dictation controller (the same text the window shows
and the history stores); `OutputOptions.postprocess` are the rules the controller applies.
Tentative text never comes here: only committed deltas, utterance ends and session ends.
While the global hotkey is held the keyboard is grabbed by Earshot, so output waits until it
is released (`set_held`).

A spoken command that takes text back ("scratch that") is applied with backspaces only while
`TypedRecord` says the focused window still ends with what Earshot typed there; otherwise
`notice` says why the text stays.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication

from app.controller.desktop.clipboard_paste import ClipboardPaster
from app.desktop.typing import OutputMode, OutputWorker, TakeBackRefusal, TypedRecord, focused_window_id
from app.dictation.postprocess import PostProcessOptions
from app.dictation.voice_edits import CommandEvent

log = logging.getLogger(__name__)

FOCUS_POLL_MS = 250
"""How often the focus is checked while typed text could be taken back (leaving forgets it)."""
BACKSPACE = "BackSpace"


@dataclass(frozen=True)
class OutputOptions:
    """Where committed text goes (`mode`) and how it is cleaned up first (`postprocess`)."""

    mode: OutputMode = OutputMode.WINDOW
    postprocess: PostProcessOptions = field(default_factory=PostProcessOptions)
    """Applied once by the dictation controller, before the text is shown, stored and output."""


class OutputRouter(QObject):
    """`error` carries a user-facing message (once per session) when text could not be delivered."""

    error = Signal(str)
    notice = Signal(str)  # one line: a spoken command could not change the focused app's text
    _worker_error = Signal(str)

    def __init__(
        self,
        options: OutputOptions | None = None,
        worker_factory: Callable[[Callable[[str], None]], OutputWorker] = OutputWorker,
        parent: QObject | None = None,
        window_id: Callable[[], int | None] = focused_window_id,
    ) -> None:
        super().__init__(parent)
        self.typed = TypedRecord()
        self._window_id = window_id
        self._focus_watch = QTimer(self, interval=FOCUS_POLL_MS)
        self._focus_watch.timeout.connect(self._watch_focus)
        self.options = options or OutputOptions()
        self._worker = worker_factory(self._worker_error.emit)
        self._paster: ClipboardPaster | None = None
        self._held = False
        self._waiting = ""  # text held back while the hotkey is down
        self._reported = False
        self._worker_error.connect(self._typing_failed, Qt.ConnectionType.QueuedConnection)

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

    def take_back(self, event: CommandEvent) -> None:
        """Apply a spoken command's `EndEdit` to the focused app, when it is safe (see the module)."""
        edit = event.edit
        if edit is None or self.options.mode is OutputMode.WINDOW or QGuiApplication.focusWindow() is not None:
            return  # nothing typed elsewhere: the window shows the change
        waiting = edit.applied_to(self._waiting)
        if waiting is not None:  # not typed yet (the hotkey is down)
            self._waiting = waiting
            return
        if self._paster is not None and self._paster.busy:
            self.notice.emit(TakeBackRefusal.BUSY.value)
            return
        window = self._window_id()
        plan = self.typed.take_back(window, edit.removed, edit.inserted)
        if plan.refused is not None:
            self.notice.emit(plan.refused.value)
            return
        # the keys may wait behind text still being typed: they go only into the window the
        # edit was planned for, never into one the user clicked into meanwhile
        for _ in range(plan.backspaces):
            self._worker.send_keys(BACKSPACE, window=window)
        if plan.text and self.options.mode is OutputMode.TYPE:
            self._worker.type_text(plan.text, window=window)
        elif plan.text:
            self.paster.paste(plan.text, window)

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
        focus = QGuiApplication.focusWindow()
        if focus is not None:  # Earshot's own window has the focus: the text is shown there already
            log.info("%d characters not typed: Earshot's window %r has the focus", len(text), focus.title())
            return
        if self._held:
            self._waiting += text
            return
        self._send(text)
        self.typed.typed(self._window_id(), text)
        self._focus_watch.start()

    def _send(self, text: str) -> None:
        """Dictated text goes wherever the focus is when its turn comes (typing stops where the
        focus moves mid-text); only a spoken edit is bound to the window it was planned for."""
        if self.options.mode is OutputMode.TYPE:
            self._worker.type_text(text)
        else:
            self.paster.paste(text)

    def _watch_focus(self) -> None:
        self.typed.focus_seen(self._window_id())
        if not self.typed.text:
            self._focus_watch.stop()

    def _typing_failed(self, message: str) -> None:
        """A typing or key job failed, perhaps part way (the focus moved): what the window ends
        with is no longer known, so nothing typed so far is taken back."""
        self.typed.forget(TakeBackRefusal.NOT_ALL_TYPED)
        self._report(message)

    def _report(self, message: str) -> None:
        if not self._reported:
            self._reported = True
            self.error.emit(message)

"""Paste mode: put text on the clipboard, press the paste key, then put the clipboard back.

The clipboard is restored only after the target application has read our text: Qt asks our
QMimeData for its data when another application requests it (X11, Wayland, Windows and macOS
alike), which `_TrackedMimeData` reports. If nothing reads it within `read_timeout_ms` (the
window ignored the key) the clipboard is restored anyway. Clipboard calls run on the GUI
thread (Qt requires it); the paste key is pressed on the output thread.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QMimeData, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QClipboard

from app.desktop.typing import OutputWorker, PasteTarget, focused_window_class, paste_target

READ_TIMEOUT_MS = 2000
SETTLE_MS = 150
"""After the first read: applications may ask for several formats one after another."""


class _TrackedMimeData(QMimeData):
    def __init__(self, text: str, on_read: Callable[[], None]) -> None:
        super().__init__()
        self.setText(text)
        self._on_read = on_read

    def retrieveData(self, mimetype: str, preferred_type: Any) -> Any:
        self._on_read()
        return super().retrieveData(mimetype, preferred_type)


def _copy(source: QMimeData | None) -> QMimeData | None:
    """A copy of every format the clipboard offers (None when it is empty)."""
    if source is None or not source.formats():
        return None
    copy = QMimeData()
    for fmt in source.formats():
        copy.setData(fmt, source.data(fmt))
    return copy


class ClipboardPaster(QObject):
    """Pastes queued text one piece at a time; `idle` is emitted once the clipboard is back."""

    idle = Signal()
    _key_sent = Signal(bool)  # from the output thread

    def __init__(
        self,
        worker: OutputWorker,
        clipboard: QClipboard,
        target_for: Callable[[], PasteTarget] | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._worker = worker
        self._clipboard = clipboard
        self._target_for = target_for or (lambda: paste_target(focused_window_class()))
        self._queue: deque[tuple[str, int | None]] = deque()
        self._saved: dict[QClipboard.Mode, QMimeData | None] | None = None
        self._busy = False
        self._settle = QTimer(self, singleShot=True, interval=SETTLE_MS)
        self._settle.timeout.connect(self._piece_done)
        self._timeout = QTimer(self, singleShot=True, interval=READ_TIMEOUT_MS)
        self._timeout.timeout.connect(self._piece_done)
        self._key_sent.connect(self._on_key_sent, Qt.ConnectionType.QueuedConnection)

    @property
    def busy(self) -> bool:
        return self._busy or bool(self._queue) or self._saved is not None

    def paste(self, text: str, window: int | None = None) -> None:
        """Paste `text`; with `window` (an X11 window id), only while that window has the focus
        (where the keyboard backend can tell): a paste that waited behind others never lands in
        a window the user clicked into meanwhile."""
        if text:
            self._queue.append((text, window))
            if not self._busy:
                self._next()

    def _next(self) -> None:
        if not self._queue:
            self._restore()
            return
        text, window = self._queue.popleft()
        target = self._target_for()
        modes = [QClipboard.Mode.Clipboard]
        if target.uses_primary and self._clipboard.supportsSelection():
            modes.append(QClipboard.Mode.Selection)
        if self._saved is None:
            self._saved = {}
        for mode in modes:
            if mode not in self._saved:
                self._saved[mode] = _copy(self._clipboard.mimeData(mode))
            self._clipboard.setMimeData(_TrackedMimeData(text, self._on_read), mode)
        self._busy = True
        self._timeout.start()
        self._worker.send_keys(target.chord, after=self._key_sent.emit, window=window)

    def _on_read(self) -> None:
        if self._busy and not self._settle.isActive():
            self._timeout.stop()
            self._settle.start()  # not restarted by further reads: a clipboard manager may poll

    def _on_key_sent(self, sent: bool) -> None:
        if not sent and self._busy:  # the output worker reported why; do not wait for a read
            self._piece_done()

    def _piece_done(self) -> None:
        self._settle.stop()
        self._timeout.stop()
        self._busy = False
        self._next()

    def _restore(self) -> None:
        saved, self._saved = self._saved, None
        for mode, data in (saved or {}).items():
            if data is None:
                self._clipboard.clear(mode)
            else:
                self._clipboard.setMimeData(data, mode)
        if saved is not None:
            self.idle.emit()

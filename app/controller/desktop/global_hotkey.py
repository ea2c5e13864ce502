"""The system-wide hotkey as Qt signals (the listener thread's callbacks, queued to the GUI)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, Signal

from app.desktop.hotkeys import HotkeyError, HotkeyListener, open_hotkey

HotkeyOpener = Callable[[str, Callable[[], None], Callable[[], None]], HotkeyListener]


class GlobalHotkey(QObject):
    """The system-wide hotkey as Qt signals: `pressed`/`released` on the GUI thread, whatever
    thread the platform listener runs on."""

    pressed = Signal()
    released = Signal()
    _pressed = Signal()  # from the listener thread
    _released = Signal()

    def __init__(self, opener: HotkeyOpener = open_hotkey, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._opener = opener
        self._listener: HotkeyListener | None = None
        self._pressed.connect(self.pressed, Qt.ConnectionType.QueuedConnection)
        self._released.connect(self.released, Qt.ConnectionType.QueuedConnection)

    @property
    def chord(self) -> str:
        return self._listener.chord if self._listener is not None else ""

    def bind(self, chord: str) -> str | None:
        """Grab `chord` ("" = no hotkey) instead of the current one; returns why it failed, or None."""
        if self._listener is not None and self._listener.chord == chord:
            return None
        self.release()
        if not chord:
            return None
        try:
            self._listener = self._opener(chord, self._pressed.emit, self._released.emit)
        except HotkeyError as exc:
            return f"The hotkey {chord} is not available: {exc}"
        return None

    def release(self) -> None:
        if self._listener is not None:
            self._listener.stop()
            self._listener = None

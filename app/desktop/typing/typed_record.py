"""What Earshot typed into which window, so a spoken "scratch that" can take it back (Qt-free).

Backspaces are safe only while the window's text still ends with what Earshot typed: the same
window has the focus, Earshot has typed nothing elsewhere, and the focus has not left that window
since (the user may have typed or moved the caret there). The record is forgotten whenever
that can no longer be known.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class TakeBackRefusal(enum.Enum):
    """Why typed text cannot be taken back with backspaces (each value is the line the user sees)."""

    UNKNOWN_WINDOW = "Earshot cannot tell which window has the focus here, so it leaves the typed text as it is."
    OTHER_WINDOW = "The text was typed into another window, so Earshot leaves it as it is."
    FOCUS_LEFT = (
        "The focus left that window since (something may have been typed there), so Earshot leaves the text as it is."
    )
    CHANGED = "That window's text no longer ends with those words, so Earshot leaves it as it is."
    BUSY = "Earshot is still pasting, so it leaves the text as it is."
    NOT_ALL_TYPED = "Typing into that window stopped part way, so Earshot leaves the text as it is."


@dataclass(frozen=True)
class TakeBack:
    """Press Backspace `backspaces` times, then type `text`; or nothing, because of `refused`."""

    backspaces: int = 0
    text: str = ""
    refused: TakeBackRefusal | None = None


class TypedRecord:
    """The text Earshot typed into one window since the focus last came to it."""

    def __init__(self) -> None:
        self._window: int | None = None
        self._text = ""
        self._lost: TakeBackRefusal | None = None  # why the record was forgotten

    @property
    def text(self) -> str:
        return self._text

    def typed(self, window: int | None, text: str) -> None:
        """Earshot typed `text` while `window` (an X11 window id; None = unknown) had the focus."""
        if window is None or window != self._window:
            self._window, self._text = window, ""
        self._text += text
        self._lost = None

    def focus_seen(self, window: int | None) -> None:
        """The focus is on `window` now: leaving the recorded window forgets what was typed there."""
        if window != self._window and self._text:
            self.forget(TakeBackRefusal.FOCUS_LEFT)

    def forget(self, why: TakeBackRefusal | None = None) -> None:
        self._window, self._text, self._lost = None, "", why

    def take_back(self, window: int | None, removed: str, inserted: str = "") -> TakeBack:
        """How to replace `removed` at the end of what was typed into `window` by `inserted`."""
        if window is None:
            return TakeBack(refused=TakeBackRefusal.UNKNOWN_WINDOW)
        if window != self._window:
            return TakeBack(refused=self._lost or TakeBackRefusal.OTHER_WINDOW)
        if not removed or not self._text.endswith(removed):
            return TakeBack(refused=TakeBackRefusal.CHANGED)
        self._text = self._text[: len(self._text) - len(removed)] + inserted
        return TakeBack(len(removed), inserted)

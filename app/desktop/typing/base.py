"""What every way of putting text into the focused window offers, and its error."""

from __future__ import annotations

import enum
from typing import Protocol, runtime_checkable


class OutputMode(enum.Enum):
    """Where committed dictation text goes (see each value's comment)."""

    WINDOW = "window"  # text stays in Earshot's own window
    TYPE = "type"  # committed text is typed into the focused window
    PASTE = "paste"  # committed text goes through the clipboard and a paste key


class OutputError(RuntimeError):
    """Text cannot be delivered; the message says why and what to install or allow."""


class KeyboardBackend(Protocol):
    """Synthesises keyboard input into whatever window has the focus.

    `type_text` types Unicode text as it is ("\\n" presses Return); `send_keys` presses a chord
    such as "ctrl+v" or "shift+Insert" (modifiers joined with "+", the key last, X11 key names).
    Both block until the input is sent (not until the target has processed it); both raise
    `OutputError`. Call them from one thread at a time.
    """

    name: str

    def type_text(self, text: str) -> None: ...

    def send_keys(self, chord: str) -> None: ...

    def close(self) -> None: ...


@runtime_checkable
class WindowGuardedKeyboard(Protocol):
    """A backend that can send keys only while a given window has the focus (X11 XTEST): an
    edit planned for one window never lands in another that took the focus meanwhile.
    `window` is the X11 id of the focused window; both raise `OutputError` once the focus is
    elsewhere, with nothing more sent."""

    def type_text_into(self, text: str, window: int) -> None: ...

    def send_keys_into(self, chord: str, window: int) -> None: ...


MODIFIER_NAMES = {
    "ctrl": "Control_L",
    "control": "Control_L",
    "shift": "Shift_L",
    "alt": "Alt_L",
    "super": "Super_L",
    "meta": "Super_L",
    "win": "Super_L",
    "cmd": "Super_L",
}
"""Chord modifier words -> X11 key names (the other backends map the same words)."""


def split_chord(chord: str) -> tuple[list[str], str]:
    """ "ctrl+shift+v" -> (["ctrl", "shift"], "v"); modifiers lower-cased, the key as written."""
    parts = [p.strip() for p in chord.split("+") if p.strip()]
    if not parts:
        raise OutputError(f"empty key chord {chord!r}")
    modifiers = [p.lower() for p in parts[:-1]]
    unknown = [m for m in modifiers if m not in MODIFIER_NAMES]
    if unknown:
        raise OutputError(f"unknown modifier {unknown[0]!r} in {chord!r} (use ctrl, shift, alt, super)")
    return modifiers, parts[-1]

"""The hotkey listener interface and its modes."""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Protocol


class HotkeyMode(enum.Enum):
    """How the global hotkey drives dictation: toggle, or hold to talk."""

    TOGGLE = "toggle"  # press to start, press again to stop
    HOLD = "hold"  # dictate while the keys are held down (push-to-talk)


class HotkeyError(RuntimeError):
    """The hotkey cannot be registered; the message is user-facing."""


class HotkeyListener(Protocol):
    """A grabbed global hotkey whose press and release callbacks run on the listener's thread."""

    chord: str

    def stop(self) -> None:
        """Release the hotkey and end the listener thread."""
        ...


Callback = Callable[[], None]

"""Pick the keyboard backend that works on this desktop, or say clearly why none does."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from app.desktop.typing.base import KeyboardBackend, OutputError

BackendFactory = Callable[[], KeyboardBackend]


def _xtest() -> KeyboardBackend:
    from app.desktop.typing.xtest_process import XTestProcessKeyboard

    return XTestProcessKeyboard()


def _xdotool() -> KeyboardBackend:
    from app.desktop.typing.tools import XdotoolKeyboard

    return XdotoolKeyboard()


def _wtype() -> KeyboardBackend:
    from app.desktop.typing.tools import WtypeKeyboard

    return WtypeKeyboard()


def _ydotool() -> KeyboardBackend:
    from app.desktop.typing.tools import YdotoolKeyboard

    return YdotoolKeyboard()


def _sendinput() -> KeyboardBackend:
    from app.desktop.typing.windows import SendInputKeyboard

    return SendInputKeyboard()


def _cgevent() -> KeyboardBackend:
    from app.desktop.typing.macos import CGEventKeyboard

    return CGEventKeyboard()


def candidate_backends(
    platform: str = sys.platform, env: Mapping[str, str] = os.environ
) -> list[tuple[str, BackendFactory]]:
    """The backends worth trying here, best first."""
    if platform == "win32":
        return [("SendInput", _sendinput)]
    if platform == "darwin":
        return [("CGEvent", _cgevent)]
    wayland = bool(env.get("WAYLAND_DISPLAY")) or env.get("XDG_SESSION_TYPE") == "wayland"
    x11 = [("X11 XTEST", _xtest), ("xdotool", _xdotool)] if env.get("DISPLAY") else []
    if wayland:  # XTEST only reaches X11 (XWayland) windows there: the last resort
        return [("wtype", _wtype), ("ydotool", _ydotool), *x11]
    return x11  # no display server: nothing to type into


@dataclass(frozen=True)
class KeyboardOpening:
    """The backend that opened (`name`, `keyboard`; both None when none did) and, for each one
    tried before it, "name: why it did not open"."""

    name: str | None
    keyboard: KeyboardBackend | None
    passed_over: tuple[str, ...]


def try_keyboards(candidates: list[tuple[str, BackendFactory]] | None = None) -> KeyboardOpening:
    """Open the first backend that opens, keeping the reasons of those that did not."""
    reasons: list[str] = []
    for name, factory in candidates if candidates is not None else candidate_backends():
        try:
            return KeyboardOpening(name, factory(), tuple(reasons))
        except OutputError as exc:
            reasons.append(f"{name}: {exc}")
    return KeyboardOpening(None, None, tuple(reasons))


def open_keyboard(candidates: list[tuple[str, BackendFactory]] | None = None) -> KeyboardBackend:
    """The first backend that opens; OutputError listing every reason when none does."""
    opening = try_keyboards(candidates)
    if opening.keyboard is not None:
        return opening.keyboard
    tried = "; ".join(opening.passed_over) or "no display server found (DISPLAY and WAYLAND_DISPLAY are unset)"
    raise OutputError(
        f"Earshot cannot type into other windows here ({tried}). On X11 install python-xlib or xdotool; "
        "on Wayland install wtype (wlroots/KDE) or ydotool; or choose the 'window' output mode."
    )

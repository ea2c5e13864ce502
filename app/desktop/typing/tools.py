"""Keyboard backends that run a command-line tool: xdotool (X11), wtype and ydotool (Wayland)."""

from __future__ import annotations

import shutil
import subprocess

from app.desktop.typing.base import OutputError, split_chord

TOOL_TIMEOUT_S = 30.0


def _run(argv: list[str], stdin: str | None = None) -> None:
    try:
        result = subprocess.run(
            argv, input=stdin, capture_output=True, text=True, encoding="utf-8", timeout=TOOL_TIMEOUT_S, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise OutputError(f"{argv[0]} failed: {exc}") from exc
    if result.returncode != 0:
        detail = (result.stderr or result.stdout).strip().splitlines()
        raise OutputError(f"{argv[0]} failed: {detail[-1] if detail else f'exit status {result.returncode}'}")


def _require(tool: str, hint: str) -> str:
    path = shutil.which(tool)
    if path is None:
        raise OutputError(f"{tool} is not installed ({hint})")
    return path


class XdotoolKeyboard:
    """X11 through `xdotool` (XTEST). `--clearmodifiers` lifts held Ctrl/Alt while typing."""

    name = "xdotool"

    def __init__(self) -> None:
        self._tool = _require("xdotool", "e.g. apt install xdotool")

    def type_text(self, text: str) -> None:
        _run([self._tool, "type", "--clearmodifiers", "--delay", "5", "--file", "-"], stdin=text)

    def send_keys(self, chord: str) -> None:
        modifiers, key = split_chord(chord)
        _run([self._tool, "key", "--clearmodifiers", "+".join([*modifiers, key])])

    def close(self) -> None:
        pass


class WtypeKeyboard:
    """Wayland compositors with the virtual-keyboard protocol (sway, Hyprland, KDE; not GNOME)."""

    name = "wtype"

    def __init__(self) -> None:
        self._tool = _require("wtype", "e.g. apt install wtype")

    def type_text(self, text: str) -> None:
        _run([self._tool, "-"], stdin=text)

    def send_keys(self, chord: str) -> None:
        modifiers, key = split_chord(chord)
        names = {"super": "logo", "meta": "logo", "win": "logo", "cmd": "logo", "control": "ctrl"}
        argv = [self._tool]
        for m in modifiers:
            argv += ["-M", names.get(m, m)]
        argv += ["-k", key]
        for m in reversed(modifiers):
            argv += ["-m", names.get(m, m)]
        _run(argv)

    def close(self) -> None:
        pass


# Linux input event codes (linux/input-event-codes.h) for the chords Earshot sends.
_EVDEV = {"ctrl": 29, "control": 29, "shift": 42, "alt": 56, "super": 125, "v": 47, "insert": 110, "return": 28}


class YdotoolKeyboard:
    """Any Wayland or X11 session through the kernel's uinput (`ydotoold` must be running and the
    user needs access to /dev/uinput). It types key codes of a US layout: ASCII text only."""

    name = "ydotool"

    def __init__(self) -> None:
        self._tool = _require("ydotool", "e.g. apt install ydotool, and start ydotoold")

    def type_text(self, text: str) -> None:
        if not text.isascii():
            raise OutputError("ydotool can only type ASCII text; use paste mode for other characters")
        _run([self._tool, "type", "--file", "-"], stdin=text)

    def send_keys(self, chord: str) -> None:
        modifiers, key = split_chord(chord)
        codes = [_EVDEV.get(name.lower()) for name in [*modifiers, key]]
        if None in codes:
            raise OutputError(f"ydotool: no key code known for {chord!r}")
        presses = [f"{c}:1" for c in codes] + [f"{c}:0" for c in reversed(codes)]
        _run([self._tool, "key", *presses])

    def close(self) -> None:
        pass

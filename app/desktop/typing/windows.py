"""Typing on Windows with SendInput (user32, through ctypes).

Text is sent as KEYEVENTF_UNICODE events, one per UTF-16 code unit, so any character arrives
whatever the keyboard layout. Windows does not let a normal process type into windows of an
elevated (administrator) process (UIPI): run Earshot elevated too for those.
Not testable on Linux CI: kept small and documented.
"""

from __future__ import annotations

import ctypes
import sys
from ctypes import wintypes
from typing import Any

from app.desktop.typing.base import OutputError, split_chord

_INPUT_KEYBOARD = 1
_KEYEVENTF_KEYUP = 0x0002
_KEYEVENTF_UNICODE = 0x0004
_VK = {
    "ctrl": 0x11,
    "control": 0x11,
    "shift": 0x10,
    "alt": 0x12,
    "super": 0x5B,
    "win": 0x5B,
    "meta": 0x5B,
    "cmd": 0x5B,
    "insert": 0x2D,
    "return": 0x0D,
    "enter": 0x0D,
    "tab": 0x09,
}


class _KeybdInput(ctypes.Structure):
    _fields_ = [
        ("wVk", wintypes.WORD),
        ("wScan", wintypes.WORD),
        ("dwFlags", wintypes.DWORD),
        ("time", wintypes.DWORD),
        ("dwExtraInfo", ctypes.c_size_t),
    ]


class _InputUnion(ctypes.Union):
    # MOUSEINPUT is the largest member: pad to its size so sizeof(INPUT) is right.
    _fields_ = [("ki", _KeybdInput), ("pad", ctypes.c_byte * 32)]


class _Input(ctypes.Structure):
    _fields_ = [("type", wintypes.DWORD), ("u", _InputUnion)]


def _key(vk: int = 0, scan: int = 0, flags: int = 0) -> _Input:
    return _Input(_INPUT_KEYBOARD, _InputUnion(ki=_KeybdInput(vk, scan, flags, 0, 0)))


class SendInputKeyboard:
    """Types text into the focused Windows app with SendInput Unicode key events."""

    name = "Windows SendInput"

    def __init__(self) -> None:
        if sys.platform != "win32":
            raise OutputError("SendInput exists on Windows only")
        self._send: Any = getattr(ctypes, "windll").user32.SendInput  # noqa: B009 (exists on Windows only)

    def type_text(self, text: str) -> None:
        events = []
        data = text.replace("\r\n", "\n").encode("utf-16-le")
        for i in range(0, len(data), 2):
            unit = int.from_bytes(data[i : i + 2], "little")
            if unit == 0x0A:  # a new line is the Enter key, not a character
                events += [_key(vk=0x0D), _key(vk=0x0D, flags=_KEYEVENTF_KEYUP)]
            else:
                events += [
                    _key(scan=unit, flags=_KEYEVENTF_UNICODE),
                    _key(scan=unit, flags=_KEYEVENTF_UNICODE | _KEYEVENTF_KEYUP),
                ]
        self._post(events)

    def send_keys(self, chord: str) -> None:
        modifiers, key = split_chord(chord)
        vk = _VK.get(key.lower()) or (ord(key.upper()) if len(key) == 1 else None)
        if vk is None:
            raise OutputError(f"unknown key {key!r} in {chord!r}")
        codes = [_VK[m] for m in modifiers] + [vk]
        self._post([_key(vk=c) for c in codes] + [_key(vk=c, flags=_KEYEVENTF_KEYUP) for c in reversed(codes)])

    def close(self) -> None:
        pass

    def _post(self, events: list[_Input]) -> None:
        array = (_Input * len(events))(*events)
        sent = self._send(len(events), array, ctypes.sizeof(_Input))
        if sent != len(events):
            raise OutputError("Windows blocked the typed input (is the target window running as administrator?)")

"""Typing on macOS with Quartz CGEvents (ApplicationServices, through ctypes).

macOS only delivers synthetic key events from apps the user has allowed under System Settings >
Privacy & Security > Accessibility; without it they are silently dropped, so we check first with
AXIsProcessTrusted. Text goes as Unicode strings attached to key events (any character, any
layout). Not testable on Linux CI: kept small and documented.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from typing import Any

from app.desktop.typing.base import OutputError, split_chord

_HID_EVENT_TAP = 0
_FLAGS = {
    "cmd": 1 << 20,
    "super": 1 << 20,
    "meta": 1 << 20,
    "win": 1 << 20,
    "ctrl": 1 << 18,
    "control": 1 << 18,
    "alt": 1 << 19,
    "shift": 1 << 17,
}
_KEYCODES = {"v": 9, "return": 36, "tab": 48, "insert": 114}  # US virtual key codes (Events.h)
_CHUNK = 20  # CGEventKeyboardSetUnicodeString takes at most 20 UTF-16 units per event


class CGEventKeyboard:
    """Types text into the focused macOS app with CGEvent keyboard events."""

    name = "macOS CGEvent"

    def __init__(self) -> None:
        if sys.platform != "darwin":
            raise OutputError("CGEvent exists on macOS only")
        lib: Any = ctypes.cdll.LoadLibrary(ctypes.util.find_library("ApplicationServices") or "")
        if not lib.AXIsProcessTrusted():
            raise OutputError(
                "allow Earshot under System Settings > Privacy & Security > Accessibility, "
                "then restart it, to type into other apps"
            )
        lib.CGEventCreateKeyboardEvent.restype = ctypes.c_void_p
        lib.CGEventCreateKeyboardEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint16, ctypes.c_bool]
        lib.CGEventKeyboardSetUnicodeString.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_void_p]
        lib.CGEventSetFlags.argtypes = [ctypes.c_void_p, ctypes.c_uint64]
        lib.CGEventPost.argtypes = [ctypes.c_uint32, ctypes.c_void_p]
        self._lib: Any = lib
        self._release: Any = ctypes.cdll.LoadLibrary(ctypes.util.find_library("CoreFoundation") or "").CFRelease
        self._release.argtypes = [ctypes.c_void_p]

    def type_text(self, text: str) -> None:
        for line_number, line in enumerate(text.split("\n")):
            if line_number:
                self._post(_KEYCODES["return"], 0)
            units = line.encode("utf-16-le")
            for i in range(0, len(units), 2 * _CHUNK):
                chunk = units[i : i + 2 * _CHUNK]
                buffer = ctypes.create_string_buffer(chunk, len(chunk))
                self._post(0, 0, (buffer, len(chunk) // 2))

    def send_keys(self, chord: str) -> None:
        modifiers, key = split_chord(chord)
        if key.lower() not in _KEYCODES:
            raise OutputError(f"unknown key {key!r} in {chord!r}")
        flags = 0
        for m in modifiers:
            flags |= _FLAGS[m]
        self._post(_KEYCODES[key.lower()], flags)

    def close(self) -> None:
        pass

    def _post(self, keycode: int, flags: int, unicode: tuple[ctypes.Array[ctypes.c_char], int] | None = None) -> None:
        for down in (True, False):
            event = self._lib.CGEventCreateKeyboardEvent(None, keycode, down)
            if unicode is not None:
                self._lib.CGEventKeyboardSetUnicodeString(event, unicode[1], unicode[0])
            if flags:
                self._lib.CGEventSetFlags(event, flags)
            self._lib.CGEventPost(_HID_EVENT_TAP, event)
            self._release(event)

"""A global hotkey on Windows: RegisterHotKey on a thread with its own message loop.

Windows reports only the press (WM_HOTKEY, with MOD_NOREPEAT against key-repeat); the release
is found by polling GetAsyncKeyState until the key is up. Not testable on Linux CI: kept small.
"""

from __future__ import annotations

import ctypes
import threading
import time
from ctypes import wintypes
from typing import Any

from app.desktop.hotkeys.base import Callback, HotkeyError

_MODS = {"alt": 0x1, "ctrl": 0x2, "control": 0x2, "shift": 0x4, "super": 0x8, "win": 0x8, "meta": 0x8, "cmd": 0x8}
_MOD_NOREPEAT = 0x4000
_WM_HOTKEY, _WM_QUIT = 0x0312, 0x0012
_VK = {
    "space": 0x20,
    "insert": 0x2D,
    "pause": 0x13,
    "scroll_lock": 0x91,
    "return": 0x0D,
    **{f"f{n}": 0x6F + n for n in range(1, 25)},
}
_RELEASE_POLL_S = 0.02
_HOTKEY_ID = 0x4541  # any id unique within this thread


def _virtual_key(key: str) -> int:
    if key.lower() in _VK:
        return _VK[key.lower()]
    if len(key) == 1 and key.isalnum():
        return ord(key.upper())
    raise HotkeyError(f"unknown key {key!r} for the hotkey")


class WindowsHotkey:
    """A global hotkey on Windows (RegisterHotKey), listened for on its own thread."""

    def __init__(self, chord: str, on_press: Callback, on_release: Callback) -> None:
        self.chord = chord
        parts = [p.strip() for p in chord.split("+") if p.strip()]
        if not parts or any(p.lower() not in _MODS for p in parts[:-1]):
            raise HotkeyError(f"cannot read the hotkey {chord!r} (e.g. ctrl+alt+space)")
        self._mods = sum(_MODS[p.lower()] for p in parts[:-1]) | _MOD_NOREPEAT
        self._vk = _virtual_key(parts[-1])
        self._on_press, self._on_release = on_press, on_release
        self._user32: Any = getattr(ctypes, "windll").user32  # noqa: B009 (exists on Windows only)
        self._thread_id = 0
        self._registered = threading.Event()
        self._error: str | None = None
        self._thread = threading.Thread(target=self._run, name="earshot-hotkey", daemon=True)
        self._thread.start()
        self._registered.wait(5.0)
        if self._error:
            raise HotkeyError(self._error)

    def stop(self) -> None:
        if self._thread_id:
            self._user32.PostThreadMessageW(self._thread_id, _WM_QUIT, 0, 0)
        self._thread.join(2.0)

    def _run(self) -> None:
        kernel32: Any = getattr(ctypes, "windll").kernel32  # noqa: B009
        self._thread_id = kernel32.GetCurrentThreadId()
        if not self._user32.RegisterHotKey(None, _HOTKEY_ID, self._mods, self._vk):
            self._error = f"another application already uses {self.chord}: choose another hotkey in Settings"
            self._registered.set()
            return
        self._registered.set()
        message = wintypes.MSG()
        try:
            while self._user32.GetMessageW(ctypes.byref(message), None, 0, 0) > 0:
                if message.message == _WM_HOTKEY:
                    self._on_press()
                    while self._user32.GetAsyncKeyState(self._vk) & 0x8000:
                        time.sleep(_RELEASE_POLL_S)
                    self._on_release()
        finally:
            self._user32.UnregisterHotKey(None, _HOTKEY_ID)

"""Choosing the hotkey listener for this desktop (the platform modules load only where they run)."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

from app.desktop.hotkeys.base import Callback, HotkeyError, HotkeyListener


def open_hotkey(
    chord: str,
    on_press: Callback,
    on_release: Callback,
    platform: str = sys.platform,
    env: Mapping[str, str] = os.environ,
) -> HotkeyListener:
    """Grab `chord` (e.g. "ctrl+alt+space") system-wide; callbacks come from another thread.

    Key-repeat while the keys are held does not repeat `on_press`.
    """
    if platform == "win32":
        from app.desktop.hotkeys.windows import WindowsHotkey

        return WindowsHotkey(chord, on_press, on_release)
    if platform == "darwin":
        raise HotkeyError(
            "global hotkeys are not built in on macOS yet: bind `earshot toggle` to a keyboard shortcut "
            "(Shortcuts app > Run Shell Script)"
        )
    if env.get("WAYLAND_DISPLAY") or env.get("XDG_SESSION_TYPE") == "wayland":
        raise HotkeyError(
            "Wayland does not let apps grab keys: add a custom shortcut in your desktop's keyboard settings "
            "that runs `earshot toggle` (or `earshot start` / `earshot stop`)"
        )
    if not env.get("DISPLAY"):
        raise HotkeyError("no X11 display (DISPLAY is unset), so there is no global hotkey")
    from app.desktop.hotkeys.x11 import X11Hotkey

    return X11Hotkey(chord, on_press, on_release, env.get("DISPLAY"))

"""System-wide hotkeys (Qt-free): a key grab on X11, RegisterHotKey on Windows.

`open_hotkey(chord, on_press, on_release)` returns a started `HotkeyListener` or raises
`HotkeyError` saying why (no X11, the chord is taken by another app, ...). Callbacks run on
the listener's thread. macOS and Wayland have no API an app may use for this without the
user's say: there, bind `earshot toggle` (or start/stop) to a shortcut in the system settings;
see the README.
"""

from app.desktop.hotkeys.base import HotkeyError, HotkeyListener, HotkeyMode
from app.desktop.hotkeys.select import open_hotkey

__all__ = ["HotkeyError", "HotkeyListener", "HotkeyMode", "open_hotkey"]

"""Which window has the focus, and which key pastes into it.

Terminals do not paste with Ctrl+V (that is a control character there): most take Ctrl+Shift+V
from the CLIPBOARD; xterm, urxvt and st take Shift+Insert, which pastes the PRIMARY selection.
We recognise them by the WM_CLASS of the focused X11 window.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")

PRIMARY_TERMINALS = frozenset({"xterm", "uxterm", "urxvt", "rxvt", "st", "st-256color", "eterm", "aterm"})
CLIPBOARD_TERMINALS = frozenset(
    {
        "gnome-terminal",
        "gnome-terminal-server",
        "org.gnome.console",
        "kgx",
        "org.gnome.ptyxis",
        "ptyxis",
        "konsole",
        "yakuake",
        "xfce4-terminal",
        "mate-terminal",
        "lxterminal",
        "qterminal",
        "terminator",
        "tilix",
        "alacritty",
        "kitty",
        "wezterm",
        "org.wezfurlong.wezterm",
        "foot",
        "footclient",
        "ghostty",
        "com.mitchellh.ghostty",
        "terminology",
        "sakura",
        "guake",
        "tilda",
        "termite",
        "cool-retro-term",
        "deepin-terminal",
        "blackbox",
        "com.raggesilver.blackbox",
        "contour",
        "rio",
        "warp",
        "tabby",
    }
)


@dataclass(frozen=True)
class PasteTarget:
    """`chord` pastes into the window; `uses_primary`: it pastes the PRIMARY selection (X11), so
    that one must hold the text too."""

    chord: str
    uses_primary: bool = False
    window_class: str | None = None


def paste_target(window_class: str | None, platform: str = sys.platform) -> PasteTarget:
    if platform == "darwin":
        return PasteTarget("cmd+v", window_class=window_class)
    name = (window_class or "").lower()
    if platform != "win32" and name in PRIMARY_TERMINALS:
        return PasteTarget("shift+Insert", uses_primary=True, window_class=window_class)
    if platform != "win32" and name in CLIPBOARD_TERMINALS:
        return PasteTarget("ctrl+shift+v", window_class=window_class)
    return PasteTarget("ctrl+v", window_class=window_class)


def focused_window_id(display: Any = None) -> int | None:
    """The id of the focused X11 window (where typed keys go); None when unknown (no X11, no
    python-xlib, nothing focused)."""
    return _read_focus(display, lambda window, _display: int(window.id))


def focused_window_class(display: Any = None) -> str | None:
    """The WM_CLASS class (e.g. "XTerm") of the focused X11 window or its nearest ancestor that
    has one; None when unknown (no X11, no python-xlib, nothing focused)."""
    return _read_focus(display, _wm_class)


def _wm_class(window: Any, display: Any) -> str | None:
    from Xlib import X

    root = display.screen().root
    while hasattr(window, "id") and window not in (X.NONE, X.PointerRoot):
        wm_class = window.get_wm_class()
        if wm_class:
            return str(wm_class[1] or wm_class[0])
        if window.id == root.id:
            return None
        window = window.query_tree().parent
    return None


def _read_focus(display: Any, read: Callable[[Any, Any], T]) -> T | None:
    """`read(window, display)` of the focused X11 window, on `display` or a connection opened
    for this call; None when there is no X11, no python-xlib, no focus, or the server errs."""
    try:
        from Xlib import X
        from Xlib.display import Display
        from Xlib.error import DisplayError, XError
    except ImportError:
        return None
    own = display is None
    try:
        display = display or Display()
    except (DisplayError, OSError, ValueError):
        return None
    try:
        window = display.get_input_focus().focus
        if not hasattr(window, "id") or window in (X.NONE, X.PointerRoot):
            return None
        return read(window, display)
    except XError:
        return None
    finally:
        if own:
            display.close()

"""Checking a hotkey chord ("ctrl+alt+space") before it is grabbed, so the settings dialog can
say what is wrong next to the field instead of after the dialog closed (Qt-free)."""

from __future__ import annotations

MODIFIERS: frozenset[str] = frozenset({"ctrl", "control", "shift", "alt", "super", "meta", "win", "cmd"})
NAMED_KEYS: frozenset[str] = frozenset(
    {
        "space",
        "return",
        "enter",
        "tab",
        "escape",
        "esc",
        "insert",
        "delete",
        "home",
        "end",
        "pause",
        "scroll_lock",
        "print",
        "page_up",
        "page_down",
        "prior",
        "next",
        "up",
        "down",
        "left",
        "right",
        "backspace",
        "menu",
        *(f"f{n}" for n in range(1, 25)),
    }
)
"""Key names every listener understands (X11 keysym names, lower case)."""


def _is_x11_keysym(key: str) -> bool:
    """True when python-xlib knows `key` as a keysym name (a table lookup: no display needed)."""
    try:
        from Xlib import XK
    except ImportError:
        return False
    return any(XK.string_to_keysym(k) for k in (key, key.lower(), key.capitalize()))


def chord_problem(chord: str) -> str | None:
    """Why `chord` cannot be a hotkey, in a few user-facing words; None when it can ("" = no
    hotkey is fine). E.g. "ctrl+banana" -> "unknown key 'banana'"."""
    chord = chord.strip()
    if not chord:
        return None
    parts = [p.strip() for p in chord.split("+")]
    if any(not p for p in parts):
        return "a '+' without a key next to it"
    *modifiers, key = parts
    for name in modifiers:
        if name.lower() not in MODIFIERS:
            return f"unknown modifier {name!r} (use ctrl, shift, alt or super)"
    if key.lower() in MODIFIERS:
        return "add a key after the modifiers, e.g. ctrl+alt+space"
    if (len(key) == 1 and key.isprintable()) or key.lower() in NAMED_KEYS or _is_x11_keysym(key):
        return None
    return f"unknown key {key!r}"

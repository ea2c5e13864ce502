"""Typing into the focused X11 window through the XTEST extension (python-xlib).

XTEST events are indistinguishable from the keyboard's, so every X11 application accepts them
(synthetic XSendEvent input, as pynput sends, is ignored by xterm and others).

Characters the keyboard map lacks (most non-ASCII text on a US layout) are bound to spare
keycodes first. Each such character gets its own keycode and keeps it while it is in use:
applications re-read the keyboard map some time after it changes, so re-binding one keycode
per character (as `xdotool type` does) loses characters when the application reads late.

Each key goes out under a short server grab (see `_send_unmodified`); the app runs this class
in a helper process of its own (xtest_process.py), never on a thread beside Qt's.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from app.desktop.typing.base import MODIFIER_NAMES, OutputError, split_chord

try:
    from Xlib import XK, X
    from Xlib.display import Display
    from Xlib.error import DisplayError
    from Xlib.ext import xtest
except ImportError:  # python-xlib is missing: XTestKeyboard() says so
    Display = None

KEY_DELAY_S = 0.003
"""Pause after each key: lets slow clients keep up, 300 characters a second."""
REMAP_SETTLE_S = 0.05
"""After changing the keyboard map: time for applications to re-read it before keys arrive."""
REUSE_SETTLE_S = 0.15
"""Before re-binding a spare keycode: time for the application to read the keys typed with it."""
MODIFIER_WAIT_S = 2.0

_SPECIAL_KEYSYMS = {"\n": "Return", "\t": "Tab", "\b": "BackSpace"}


log = logging.getLogger(__name__)


def char_keysym(char: str) -> int:
    """The X keysym of one character: Latin-1 maps to itself, the rest to 0x01000000 + code point."""
    if char in _SPECIAL_KEYSYMS:
        return int(XK.string_to_keysym(_SPECIAL_KEYSYMS[char]))
    code = ord(char)
    if 0x20 <= code <= 0x7E or 0xA0 <= code <= 0xFF:
        return code
    return 0x01000000 | code


class XTestKeyboard:
    """A `KeyboardBackend` for X11. `display_name` None = $DISPLAY."""

    name = "X11 XTEST"

    def __init__(self, display_name: str | None = None) -> None:
        if Display is None:
            raise OutputError("typing on X11 needs python-xlib (pip install python-xlib)")
        try:
            self._display: Any = Display(display_name)
        except (DisplayError, OSError, ValueError) as exc:
            raise OutputError(f"cannot open the X display {display_name or ''}: {exc}") from exc
        if not self._display.has_extension("XTEST"):
            self._display.close()
            raise OutputError("the X server has no XTEST extension, so Earshot cannot type into other windows")
        info = self._display.display.info
        self._min_keycode = info.min_keycode
        rows = self._display.get_keyboard_mapping(info.min_keycode, info.max_keycode - info.min_keycode + 1)
        self._keymap: dict[int, tuple[int, bool]] = {}  # keysym -> (keycode, needs shift)
        spare = []
        for offset, row in enumerate(rows):
            keycode = info.min_keycode + offset
            if not any(row):
                spare.append(keycode)
            for column, keysym in enumerate(row[:2]):
                if keysym and keysym not in self._keymap:
                    self._keymap[keysym] = (keycode, column == 1)
        if len(spare) < 2:
            raise OutputError("the keyboard map has no spare keycodes to type characters it lacks")
        self._spare = spare[1:]  # keycode 8 is ignored by some toolkits
        self._bound: OrderedDict[int, int] = OrderedDict()  # keysym -> spare keycode, oldest first
        self._shift = self._keycode("Shift_L")

    # ------------------------------------------------------------------ KeyboardBackend
    def type_text(self, text: str) -> None:
        """Type `text` into the focused window. Stops with `OutputError` where the focus moves to
        another window mid-text: the rest would land there (a Return in a chat would send it)."""
        self.type_text_into(text, self._focus())

    def send_keys(self, chord: str) -> None:
        self._send_chord(chord, None)

    # ------------------------------------------------------------------ WindowGuardedKeyboard
    def type_text_into(self, text: str, window: int) -> None:
        """`type_text`, each key only while `window` (an X11 window id) has the focus."""
        guard = _KeyGuard(self._modifier_codes(), time.monotonic() + MODIFIER_WAIT_S, window)
        keysyms = [char_keysym(c) for c in text if c != "\r"]
        start = 0
        while start < len(keysyms):
            end = self._bind_missing(keysyms, start)
            for index in range(start, end):
                keycode, shift = self._keymap.get(keysyms[index]) or (self._bound[keysyms[index]], False)
                if not self._send_unmodified(partial(self._tap, keycode, shift), guard):
                    raise OutputError(
                        f"Typing stopped after {index} of {len(keysyms)} characters: the focus moved to another "
                        "window (the whole text is in Earshot's History)"
                    )
                time.sleep(KEY_DELAY_S)
            start = end

    def send_keys_into(self, chord: str, window: int) -> None:
        """`send_keys`, only while `window` (an X11 window id) has the focus."""
        self._send_chord(chord, window)

    def _send_chord(self, chord: str, window: int | None) -> None:
        modifiers, key = split_chord(chord)
        codes = [self._keycode(MODIFIER_NAMES[m]) for m in modifiers]
        keysym = XK.string_to_keysym(key) or XK.string_to_keysym(key.lower())
        if not keysym:
            raise OutputError(f"unknown key {key!r} in {chord!r}")
        keycode, shift = self._keymap.get(keysym) or self._keymap.get(char_keysym(key.lower()), (0, False))
        if not keycode:
            raise OutputError(f"the keyboard map has no key {key!r}")

        def chord_keys() -> None:
            for code in codes:
                self._fake(X.KeyPress, code)
            self._tap(keycode, shift and self._shift not in codes)
            for code in reversed(codes):
                self._fake(X.KeyRelease, code)

        guard = _KeyGuard(self._modifier_codes(), time.monotonic() + MODIFIER_WAIT_S, window)
        if not self._send_unmodified(chord_keys, guard):
            raise OutputError(f"{chord} not pressed: the focus moved to another window, so Earshot leaves it as it is")

    def close(self) -> None:
        """Give the spare keycodes back (empty), then close the connection."""
        try:
            if self._bound:
                time.sleep(REUSE_SETTLE_S)
                for keycode in self._bound.values():
                    self._display.change_keyboard_mapping(keycode, [(0,) * 2])
                self._bound.clear()
            self._display.get_input_focus()  # a round trip: the server has run all our requests
            self._display.close()
        except Exception:  # the display may be gone already: nothing left to restore
            log.info("restoring the X11 keymap failed", exc_info=True)
            pass

    # ------------------------------------------------------------------ internals
    def _bind_missing(self, keysyms: list[int], start: int) -> int:
        """Bind the keysyms of keysyms[start:] that the map lacks to spare keycodes, as far as
        the spare keycodes go; returns the end of the run that can be typed now (> start)."""
        changes: list[tuple[int, int]] = []
        reused = False
        in_run: set[int] = set()
        end = start
        while end < len(keysyms):
            keysym = keysyms[end]
            if keysym in self._bound:
                self._bound.move_to_end(keysym)
            elif keysym not in self._keymap:
                keycode, evicted = self._spare_keycode(protect=in_run)
                if keycode is None:
                    break
                reused = reused or evicted
                self._bound[keysym] = keycode
                changes.append((keycode, keysym))
            in_run.add(keysym)
            end += 1
        if changes:
            if reused:  # its old character may still be on its way to the application
                time.sleep(REUSE_SETTLE_S)
            for keycode, keysym in changes:
                self._display.change_keyboard_mapping(keycode, [(keysym, keysym)])
            self._display.flush()
            time.sleep(REMAP_SETTLE_S)
        return end

    def _spare_keycode(self, protect: set[int]) -> tuple[int | None, bool]:
        """A spare keycode: a never-used one, else the least recently used one not in `protect`.

        Returns (keycode or None, whether it was taken from another character)."""
        used = set(self._bound.values())
        for keycode in self._spare:
            if keycode not in used:
                return keycode, False
        for keysym in self._bound:
            if keysym not in protect:
                return self._bound.pop(keysym), True
        return None, False

    def _tap(self, keycode: int, shift: bool) -> None:
        """Press and release `keycode` (with Shift); sent at the next flush."""
        if shift:
            self._fake(X.KeyPress, self._shift)
        self._fake(X.KeyPress, keycode)
        self._fake(X.KeyRelease, keycode)
        if shift:
            self._fake(X.KeyRelease, self._shift)

    def _fake(self, event: int, keycode: int) -> None:
        xtest.fake_input(self._display, event, keycode)

    def _keycode(self, name: str) -> int:
        keysym = XK.string_to_keysym(name)
        if keysym not in self._keymap:
            raise OutputError(f"the keyboard map has no {name} key")
        return self._keymap[keysym][0]

    def _modifier_codes(self) -> set[int]:
        """The keycodes of every modifier key (Shift, Ctrl, Alt, Super, ...) in the server's map."""
        return {c for row in self._display.get_modifier_mapping() for c in row if c}

    def _held(self, modifier_codes: set[int]) -> list[int]:
        keys = self._display.query_keymap()
        return [c for c in modifier_codes if keys[c // 8] & (1 << (c % 8))]

    def _focus(self) -> int:
        """The input focus: a window id, or X.PointerRoot / X.NONE."""
        focus = self._display.get_input_focus().focus
        return int(getattr(focus, "id", focus))

    def _send_unmodified(self, send: Callable[[], None], guard: _KeyGuard) -> bool:
        """Run `send` (fake key events) once no modifier is held: checked before every key of a
        text, not once per text; past `guard.deadline` the modifiers still held are released
        instead. False, and nothing sent, where the focus is no longer `guard.focus`.

        A hotkey pressed while Earshot types (its own stop chord) would otherwise make the next
        letters shortcuts, and Ctrl+A then a letter replaces everything in the user's window.
        The checks and the keys run under a server grab, so no other client's key or focus
        change (xdotool, a window manager) lands between them; the grab lasts one key or chord,
        never a wait.
        """
        while True:
            self._display.grab_server()
            try:
                if guard.focus is not None and self._focus() != guard.focus:
                    return False
                held = self._held(guard.modifier_codes)
                clear = not held or time.monotonic() > guard.deadline
                if clear:
                    for code in held:
                        self._fake(X.KeyRelease, code)
                    send()
            finally:  # never leave the server grabbed: every other client would hang
                self._display.ungrab_server()
                self._display.flush()
            if clear:
                return True
            time.sleep(0.02)


@dataclass(frozen=True)
class _KeyGuard:
    """What a key waits for: no key of `modifier_codes` held (until `deadline`, time.monotonic()),
    and the input focus still `focus` (None: wherever it is)."""

    modifier_codes: set[int]
    deadline: float
    focus: int | None = None

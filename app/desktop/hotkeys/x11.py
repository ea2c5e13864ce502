"""A global hotkey on X11: a passive key grab (XGrabKey) on the root window, read on a thread.

While the chord is held the X server gives Earshot the whole keyboard (an active grab), so no
text can be typed into other windows until it is released: the output router waits for it.
X11 key-repeat sends release+press pairs with the same timestamp while a key is held; those
are dropped so that hold-to-talk sees one press and one release.
"""

from __future__ import annotations

import logging
import select
import threading
from typing import Any

from app.desktop.hotkeys.base import Callback, HotkeyError

try:
    from Xlib import XK, X
    from Xlib.display import Display
    from Xlib.error import BadAccess, CatchError, DisplayError
except ImportError:
    Display = None

_MODIFIER_MASKS = {
    "ctrl": "ControlMask",
    "control": "ControlMask",
    "shift": "ShiftMask",
    "alt": "Mod1Mask",
    "super": "Mod4Mask",
    "meta": "Mod4Mask",
    "win": "Mod4Mask",
    "cmd": "Mod4Mask",
}
POLL_S = 0.1  # how often the thread checks whether it should stop
REPEAT_WINDOW_S = 0.03  # a press this soon after a release with the same timestamp is key-repeat


log = logging.getLogger(__name__)


class X11Hotkey:
    """A global hotkey on X11 (a passive key grab), listened for on its own thread."""

    def __init__(self, chord: str, on_press: Callback, on_release: Callback, display_name: str | None = None) -> None:
        if Display is None:
            raise HotkeyError("the X11 hotkey needs python-xlib (pip install python-xlib)")
        self.chord = chord
        self._on_press, self._on_release = on_press, on_release
        try:
            self._display: Any = Display(display_name)
        except (DisplayError, OSError, ValueError) as exc:
            raise HotkeyError(f"cannot open the X display: {exc}") from exc
        self._root = self._display.screen().root
        try:
            self._keycode, self._modifiers = self._parse(chord)
            self._grab()
        except HotkeyError:
            self._display.close()
            raise
        self._stopping = threading.Event()
        self._down = False
        self._thread = threading.Thread(target=self._run, name="earshot-hotkey", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(2.0)

    def _parse(self, chord: str) -> tuple[int, int]:
        parts = [p.strip() for p in chord.split("+") if p.strip()]
        if not parts:
            raise HotkeyError("the hotkey is empty")
        mask = 0
        for name in parts[:-1]:
            if name.lower() not in _MODIFIER_MASKS:
                raise HotkeyError(f"unknown modifier {name!r} in the hotkey {chord!r} (use ctrl, shift, alt, super)")
            mask |= getattr(X, _MODIFIER_MASKS[name.lower()])
        key = parts[-1]
        keysym = XK.string_to_keysym(key) or XK.string_to_keysym(key.lower()) or XK.string_to_keysym(key.capitalize())
        keycode = self._display.keysym_to_keycode(keysym) if keysym else 0
        if not keycode:
            raise HotkeyError(f"unknown key {key!r} in the hotkey {chord!r}")
        return keycode, mask

    def _lock_variants(self) -> list[int]:
        """The chord with and without Caps Lock and Num Lock, which would otherwise defeat the grab."""
        return [self._modifiers | extra for extra in (0, X.LockMask, X.Mod2Mask, X.LockMask | X.Mod2Mask)]

    def _grab(self) -> None:
        catch = CatchError(BadAccess)
        for modifiers in self._lock_variants():
            self._root.grab_key(self._keycode, modifiers, True, X.GrabModeAsync, X.GrabModeAsync, onerror=catch)
        self._display.get_input_focus()  # a round trip, so that errors have arrived
        if catch.get_error():
            self._ungrab()
            raise HotkeyError(f"another application already uses {self.chord}: choose another hotkey in Settings")

    def _ungrab(self) -> None:
        for modifiers in self._lock_variants():
            self._root.ungrab_key(self._keycode, modifiers)
        self._display.get_input_focus()

    def _run(self) -> None:
        try:
            while not self._stopping.is_set():
                if not self._display.pending_events():
                    select.select([self._display.fileno()], [], [], POLL_S)
                    continue
                self._handle(self._display.next_event())
        finally:
            try:
                self._ungrab()
                self._display.close()
            except Exception:  # the display went away: nothing left to release
                log.info("releasing the X11 hotkey failed", exc_info=True)
                pass

    def _handle(self, event: Any) -> None:
        if event.type not in (X.KeyPress, X.KeyRelease) or event.detail != self._keycode:
            return
        if event.type == X.KeyPress:
            if not self._down:
                self._down = True
                self._on_press()
            return
        following = self._next_event_within(REPEAT_WINDOW_S)
        repeat = (
            following is not None
            and following.type == X.KeyPress
            and following.detail == self._keycode
            and following.time == event.time
        )
        if repeat:
            return  # key-repeat while held: still down
        self._down = False
        self._on_release()
        if following is not None:
            self._handle(following)

    def _next_event_within(self, seconds: float) -> Any:
        if not self._display.pending_events():
            select.select([self._display.fileno()], [], [], seconds)
        return self._display.next_event() if self._display.pending_events() else None

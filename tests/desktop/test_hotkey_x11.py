"""The X11 global hotkey under Xvfb: keys pressed with xdotool (XTEST, like a keyboard) reach
the listener while another window has the focus; key-repeat does not repeat the press."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from output_desktop import Receiver, open_qt_receiver, wait_until, xdotool

from app.desktop.hotkeys import HotkeyError, open_hotkey

CHORD = "ctrl+alt+h"


class Recorder:
    def __init__(self) -> None:
        self.events: list[str] = []
        self.lock = threading.Lock()

    def press(self) -> None:
        with self.lock:
            self.events.append("press")

    def release(self) -> None:
        with self.lock:
            self.events.append("release")


@pytest.fixture
def focused_app(x_display: str, tmp_path: Path) -> Iterator[Receiver]:
    receiver = open_qt_receiver(x_display, tmp_path)
    yield receiver
    receiver.close()


@pytest.fixture
def recorder(x_display: str, focused_app: Receiver) -> Iterator[Recorder]:
    recorder = Recorder()
    listener = open_hotkey(CHORD, recorder.press, recorder.release, "linux", {"DISPLAY": x_display})
    yield recorder
    listener.stop()


def test_a_hotkey_press_and_release_arrive_while_another_app_has_the_focus(
    x_display: str, recorder: Recorder, focused_app: Receiver
) -> None:
    xdotool(x_display, "key", CHORD)
    wait_until(lambda: recorder.events == ["press", "release"], f"one press and release (got {recorder.events})")
    assert focused_app.read() == ""  # the grabbed keys did not reach the app


def test_holding_the_hotkey_gives_one_press_and_one_release_despite_key_repeat(
    x_display: str, recorder: Recorder
) -> None:
    xdotool(x_display, "keydown", CHORD)
    wait_until(lambda: recorder.events == ["press"], "the press")
    time.sleep(1.2)  # Xvfb repeats a held key about 25 times a second
    assert recorder.events == ["press"]
    xdotool(x_display, "keyup", CHORD)
    wait_until(lambda: recorder.events == ["press", "release"], f"the release (got {recorder.events})")


def test_the_hotkey_works_with_caps_lock_on(x_display: str, recorder: Recorder) -> None:
    xdotool(x_display, "key", "Caps_Lock")
    try:
        xdotool(x_display, "key", CHORD)
        wait_until(lambda: recorder.events == ["press", "release"], f"the hotkey (got {recorder.events})")
    finally:
        xdotool(x_display, "key", "Caps_Lock")


def test_a_hotkey_another_app_holds_is_refused_with_a_clear_message(x_display: str, recorder: Recorder) -> None:
    with pytest.raises(HotkeyError, match="another application already uses"):
        open_hotkey(CHORD, lambda: None, lambda: None, "linux", {"DISPLAY": x_display})


@pytest.mark.parametrize(
    ("platform", "env", "message"),
    [
        ("linux", {"WAYLAND_DISPLAY": "wayland-0"}, "earshot toggle"),
        ("linux", {}, "DISPLAY is unset"),
        ("darwin", {}, "earshot toggle"),
    ],
)
def test_where_no_hotkey_can_be_grabbed_the_message_says_what_to_do(
    platform: str, env: dict[str, str], message: str
) -> None:
    with pytest.raises(HotkeyError, match=message):
        open_hotkey(CHORD, lambda: None, lambda: None, platform, env)


def test_a_misspelt_hotkey_is_named(x_display: str) -> None:
    with pytest.raises(HotkeyError, match="hyper"):
        open_hotkey("hyper+h", lambda: None, lambda: None, "linux", {"DISPLAY": x_display})
    with pytest.raises(HotkeyError, match="nosuchkey"):
        open_hotkey("ctrl+nosuchkey", lambda: None, lambda: None, "linux", {"DISPLAY": x_display})

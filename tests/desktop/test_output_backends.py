"""Choosing a keyboard backend and a paste key; the message when nothing can type."""

from __future__ import annotations

from typing import cast

import pytest

from app.desktop.typing import OutputError, OutputWorker, candidate_backends, open_keyboard, paste_target
from app.desktop.typing.base import KeyboardBackend, split_chord
from app.desktop.typing.select import try_keyboards


def names(platform: str, env: dict[str, str]) -> list[str]:
    return [name for name, _factory in candidate_backends(platform, env)]


def test_backends_are_tried_in_the_order_that_suits_the_desktop() -> None:
    assert names("linux", {"DISPLAY": ":0"}) == ["X11 XTEST", "xdotool"]
    wayland = {"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0", "XDG_SESSION_TYPE": "wayland"}
    assert names("linux", wayland) == ["wtype", "ydotool", "X11 XTEST", "xdotool"]
    assert names("win32", {}) == ["SendInput"]
    assert names("darwin", {}) == ["CGEvent"]


def test_no_working_backend_gives_one_clear_message() -> None:
    with pytest.raises(OutputError) as caught:
        open_keyboard(candidate_backends("linux", {"WAYLAND_DISPLAY": "wayland-0"}))
    message = str(caught.value)
    assert "cannot type into other windows" in message
    assert "wtype" in message and "ydotool" in message and "'window' output mode" in message


def test_the_backends_passed_over_before_one_opens_are_named() -> None:
    """Scripted factories (no desktop needed): the self-test warns with these reasons."""
    opened = cast(KeyboardBackend, object())  # never typed with: only its identity is checked

    def refuses() -> KeyboardBackend:
        raise OutputError("XTEST is missing\nmore detail")

    def opens() -> KeyboardBackend:
        return opened

    opening = try_keyboards([("X11 XTEST", refuses), ("xdotool", opens), ("never", refuses)])
    assert opening.name == "xdotool" and opening.keyboard is opened
    assert opening.passed_over == ("X11 XTEST: XTEST is missing\nmore detail",)
    nothing = try_keyboards([("X11 XTEST", refuses)])
    assert nothing.keyboard is None and nothing.name is None and len(nothing.passed_over) == 1


def test_the_output_worker_reports_a_backend_that_cannot_open() -> None:
    errors: list[str] = []
    worker = OutputWorker(errors.append, lambda: open_keyboard(candidate_backends("linux", {})))
    worker.type_text("hello")
    assert worker.wait_idle(10)
    worker.close()
    assert len(errors) == 1 and "DISPLAY and WAYLAND_DISPLAY are unset" in errors[0]


@pytest.mark.parametrize(
    ("window_class", "platform", "chord", "primary"),
    [
        ("XTerm", "linux", "shift+Insert", True),
        ("URxvt", "linux", "shift+Insert", True),
        ("Gnome-terminal", "linux", "ctrl+shift+v", False),
        ("kitty", "linux", "ctrl+shift+v", False),
        ("firefox", "linux", "ctrl+v", False),
        (None, "linux", "ctrl+v", False),
        (None, "win32", "ctrl+v", False),
        (None, "darwin", "cmd+v", False),
    ],
)
def test_the_paste_key_suits_the_focused_window(
    window_class: str | None, platform: str, chord: str, primary: bool
) -> None:
    target = paste_target(window_class, platform)
    assert (target.chord, target.uses_primary) == (chord, primary)


def test_key_chords_are_parsed_and_bad_ones_named() -> None:
    assert split_chord("Ctrl+Shift+v") == (["ctrl", "shift"], "v")
    assert split_chord("shift+Insert") == (["shift"], "Insert")
    with pytest.raises(OutputError, match="hyper"):
        split_chord("hyper+v")

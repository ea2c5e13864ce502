"""The X11 keyboard backends type into another app's window under Xvfb, exactly.

Targets are real programs in their own processes: a Qt line edit and an xterm running `cat`.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from output_desktop import ROOT, Receiver, open_qt_receiver, open_xterm_receiver, wait_until

from app.desktop.typing import focused_window_class, paste_target
from app.desktop.typing.base import OutputError
from app.desktop.typing.tools import XdotoolKeyboard
from app.desktop.typing.xtest import MODIFIER_WAIT_S, XTestKeyboard
from app.desktop.typing.xtest_process import XTestProcessKeyboard

TEXT = "Grüße aus Köln, «ça va?» 你好 — 42 €"


@pytest.fixture
def display(x_display: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("DISPLAY", x_display)
    return x_display


@pytest.fixture
def qt_window(display: str, tmp_path: Path) -> Iterator[Receiver]:
    receiver = open_qt_receiver(display, tmp_path)
    yield receiver
    receiver.close()


@pytest.fixture
def xterm(display: str, tmp_path: Path) -> Iterator[Receiver]:
    receiver = open_xterm_receiver(display, tmp_path)
    yield receiver
    receiver.close()


def spare_keycodes_in_use(display: str) -> list[int]:
    from Xlib.display import Display

    connection = Display(display)
    info = connection.display.info
    rows = connection.get_keyboard_mapping(info.min_keycode, info.max_keycode - info.min_keycode + 1)
    connection.close()
    return [info.min_keycode + i for i, row in enumerate(rows) if any(k >= 0x01000000 for k in row)]


def test_xtest_types_non_ascii_text_into_a_qt_window(qt_window: Receiver, display: str) -> None:
    before = spare_keycodes_in_use(display)
    keyboard = XTestKeyboard(display)
    keyboard.type_text(TEXT)
    try:
        assert qt_window.wait_for_text(TEXT) == TEXT
    finally:
        keyboard.close()
    assert spare_keycodes_in_use(display) == before  # the keyboard map is given back


def test_xtest_types_lines_into_an_xterm(xterm: Receiver, display: str) -> None:
    keyboard = XTestKeyboard(display)
    try:
        keyboard.type_text(f"first line\n{TEXT}\n")
        assert xterm.wait_for_text(TEXT + "\n") == f"first line\n{TEXT}\n"
    finally:
        keyboard.close()


def test_xtest_types_more_distinct_characters_than_there_are_spare_keys(qt_window: Receiver, display: str) -> None:
    text = "".join(chr(0x4E00 + 7 * i) for i in range(30))  # 30 different CJK characters
    keyboard = XTestKeyboard(display)
    try:
        keyboard.type_text(text)
        assert qt_window.wait_for_text(text) == text
    finally:
        keyboard.close()


def test_xtest_key_chords_reach_the_window(qt_window: Receiver, display: str) -> None:
    keyboard = XTestKeyboard(display)
    try:
        keyboard.type_text("replace me")
        qt_window.wait_for_text("replace me")
        keyboard.send_keys("ctrl+a")
        keyboard.type_text("Kept")
        assert qt_window.wait_for_text("Kept") == "Kept"
    finally:
        keyboard.close()


@pytest.mark.parametrize("keyboard_class", [XTestKeyboard, XTestProcessKeyboard], ids=["in-process", "helper"])
@pytest.mark.parametrize("held_s", [0.0, 0.1], ids=["tapped", "held"])
def test_modifiers_pressed_while_xtest_types_change_no_letter(
    qt_window: Receiver, display: str, held_s: float, keyboard_class: type[XTestKeyboard | XTestProcessKeyboard]
) -> None:
    # another program (xdotool, as the user's hotkey would) presses Ctrl and Alt again and again
    # while Earshot types: Ctrl+A then a letter would replace all that was typed before
    text = "Please move the meeting to Thursday afternoon and invite the whole team. " * 3
    hold = str(held_s)
    presses = [arg for key in ("ctrl", "alt") for arg in ("keydown", key, "sleep", hold, "keyup", key, "sleep", "0.03")]
    keyboard = keyboard_class(display)
    presser = subprocess.Popen(["xdotool", *presses * 200], env=dict(os.environ, DISPLAY=display))
    try:
        keyboard.type_text(text)
        assert presser.poll() is None, "the presses ended before the typing did"
    finally:
        presser.kill()
        presser.wait()
        keyboard.close()
    assert qt_window.wait_for_text(text) == text


def test_a_modifier_held_all_along_delays_the_typing_once(qt_window: Receiver, display: str) -> None:
    # the user holds the hotkey's Ctrl down (or a key is stuck): Earshot waits MODIFIER_WAIT_S
    # for it once, then releases it and types the text whole, each letter unmodified
    env = dict(os.environ, DISPLAY=display)
    subprocess.run(["xdotool", "keydown", "ctrl"], env=env, check=True)
    keyboard = XTestKeyboard(display)
    started = time.monotonic()
    try:
        keyboard.type_text("held all along")
    finally:
        keyboard.close()
        subprocess.run(["xdotool", "keyup", "ctrl"], env=env, check=True)
    assert qt_window.wait_for_text("held all along") == "held all along"
    assert MODIFIER_WAIT_S <= time.monotonic() - started < 3 * MODIFIER_WAIT_S


def test_typing_stops_where_the_focus_moves_to_another_window(
    qt_window: Receiver, xterm: Receiver, display: str
) -> None:
    # the user clicks into another window (a chat, a terminal) while Earshot types: the rest of
    # the text must not land there; what was typed stays where it was typed
    text = "Please move the meeting to Thursday afternoon and invite the whole team. " * 4
    qt_window.focus()
    keyboard = XTestProcessKeyboard(display)  # what the app uses
    mover = threading.Timer(0.3, xterm.focus)
    mover.start()
    try:
        with pytest.raises(OutputError, match="focus moved to another window"):
            keyboard.type_text(text)
    finally:
        mover.join()
        keyboard.close()
    typed = qt_window.read()
    assert 0 < len(typed) < len(text) and text.startswith(typed)
    xterm.focus()
    subprocess.run(["xdotool", "key", "Return"], env=dict(os.environ, DISPLAY=display), check=True)
    assert xterm.wait_for_text("\n") == "\n"  # `cat` got an empty line: not one letter went there


def test_keys_for_a_window_that_lost_the_focus_are_not_sent(qt_window: Receiver, xterm: Receiver, display: str) -> None:
    # a spoken "scratch that" planned for the Qt window, whose backspaces wait behind typing
    # while the user clicks into the terminal: they must not delete the terminal's text
    keyboard = XTestProcessKeyboard(display)
    try:
        xterm.focus()
        keyboard.type_text("typed in the terminal")
        with pytest.raises(OutputError, match="focus moved"):
            keyboard.send_keys_into("BackSpace", int(qt_window.window))
        with pytest.raises(OutputError, match="focus moved"):
            keyboard.type_text_into(" and more", int(qt_window.window))
        keyboard.send_keys_into("Return", int(xterm.window))
        assert xterm.wait_for_text("\n") == "typed in the terminal\n"
        assert qt_window.read() == ""
    finally:
        keyboard.close()


def test_the_typing_helper_types_and_gives_the_keyboard_map_back(qt_window: Receiver, display: str) -> None:
    # what the app uses on X11: XTestKeyboard in a process of its own
    before = spare_keycodes_in_use(display)
    keyboard = XTestProcessKeyboard(display)
    helper = keyboard._process
    try:
        keyboard.type_text(TEXT)
        keyboard.send_keys("ctrl+a")
        keyboard.type_text(TEXT)
        assert qt_window.wait_for_text(TEXT) == TEXT
    finally:
        keyboard.close()
    assert not helper.is_alive() and helper.exitcode == 0
    assert spare_keycodes_in_use(display) == before


def running(pid: int) -> bool:
    """The process exists and is not a zombie waiting to be reaped."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in status


def test_the_typing_helper_ends_when_the_app_is_killed(qt_window: Receiver, display: str) -> None:
    # kill -9 of the app: the helper sees its pipe close, gives the keyboard map back and exits
    before = spare_keycodes_in_use(display)
    script = (
        "import sys, time\n"
        "from app.desktop.typing.xtest_process import XTestProcessKeyboard\n"
        "keyboard = XTestProcessKeyboard(sys.argv[1])\n"
        "keyboard.type_text(sys.argv[2])\n"
        "print(keyboard._process.pid, flush=True)\n"
        "time.sleep(120)\n"
    )
    command = [sys.executable, "-c", script, display, TEXT]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=ROOT) as app:
        try:
            assert app.stdout is not None
            helper = int(app.stdout.readline())
            assert running(helper)
            assert qt_window.wait_for_text(TEXT) == TEXT
            assert spare_keycodes_in_use(display) != before  # its characters are bound while it runs
        finally:
            app.kill()
    wait_until(lambda: not running(helper), "the typing helper to exit", timeout=15)
    assert spare_keycodes_in_use(display) == before


def test_a_killed_typing_helper_is_replaced_at_the_next_text(qt_window: Receiver, display: str) -> None:
    keyboard = XTestProcessKeyboard(display)
    try:
        first = keyboard._process
        os.kill(first.pid, signal.SIGKILL)
        first.join(10)
        keyboard.type_text("typed by the next helper")
        assert qt_window.wait_for_text("typed by the next helper") == "typed by the next helper"
        assert keyboard._process is not first
    finally:
        keyboard.close()


def test_ctrl_c_in_the_apps_terminal_leaves_the_typing_helper_to_the_app(qt_window: Receiver, display: str) -> None:
    # SIGINT reaches the whole process group; the app decides when its helper ends
    keyboard = XTestProcessKeyboard(display)
    try:
        helper = keyboard._process
        os.kill(helper.pid, signal.SIGINT)
        keyboard.type_text("still typing")
        assert qt_window.wait_for_text("still typing") == "still typing"
        assert keyboard._process is helper and helper.is_alive()
    finally:
        keyboard.close()


def test_a_typing_helper_without_a_display_says_why() -> None:
    with pytest.raises(OutputError, match="cannot open the X display"):
        XTestProcessKeyboard(":4242")


def test_the_self_test_says_typing_works_on_this_display(display: str) -> None:
    result = subprocess.run([sys.executable, "-m", "app", "--self-test"], env=dict(os.environ, DISPLAY=display),
                            capture_output=True, text=True, timeout=300, cwd=ROOT, check=False)
    assert "[ ok ] typing     X11 XTEST opens" in result.stdout, result.stdout + result.stderr


def test_xdotool_types_into_an_xterm(xterm: Receiver) -> None:
    keyboard = XdotoolKeyboard()
    keyboard.type_text("typed by xdotool, 123\n")
    assert xterm.wait_for_text("\n") == "typed by xdotool, 123\n"


def test_the_focused_terminal_is_recognised_for_pasting(qt_window: Receiver, xterm: Receiver) -> None:
    xterm.focus()
    assert focused_window_class() == "XTerm"
    assert paste_target(focused_window_class(), "linux").chord == "shift+Insert"
    qt_window.focus()
    assert paste_target(focused_window_class(), "linux").chord == "ctrl+v"

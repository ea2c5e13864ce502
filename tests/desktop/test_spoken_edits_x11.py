"""A spoken "scratch that" in another app: the words Earshot typed are taken back with
backspaces in a real xterm and a Qt line edit on Xvfb, and only while the focus stayed there.

The router and the command gate run in a child process (command_driver.py); the utterances are
fed in as committed words, the end-to-end replay through the model is tested in
tests/dictation/test_voice_commands_replay.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from output_desktop import HERE, ROOT, Receiver, open_qt_receiver, settled_text

from app.desktop.typing import TakeBackRefusal


def drive(display: str, utterances: list[str]) -> subprocess.Popen[str]:
    env = dict(os.environ, DISPLAY=display, QT_QPA_PLATFORM="xcb", PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, str(HERE / "command_driver.py"), "type", json.dumps(utterances)],
                            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def said(driver: subprocess.Popen[str], until: str) -> list[str]:
    """The driver's lines up to and including `until`."""
    assert driver.stdout is not None
    lines = []
    while (line := driver.stdout.readline().strip()) != until:
        assert line, f"the driver ended before {until!r} (said {lines})"
        lines.append(line)
    return lines


def finish(driver: subprocess.Popen[str]) -> None:
    assert driver.stdin is not None and driver.stdout is not None
    driver.stdin.close()
    driver.wait(timeout=30)
    driver.stdout.close()


def test_scratch_that_takes_back_the_last_sentence_in_an_xterm(x_display: str, xterm: Receiver) -> None:
    driver = drive(x_display, ["Please call the office today.", "Send the report.", "Scratch that.", "new line"])
    assert said(driver, "done") == []
    finish(driver)
    assert xterm.wait_for_text("\n") == "Please call the office today.\n"


def test_delete_last_word_in_a_qt_line_edit(x_display: str, qt_window: Receiver) -> None:
    driver = drive(x_display, ["Meet me at noon please.", "Delete last word."])
    assert said(driver, "done") == []
    finish(driver)
    assert settled_text(qt_window.read) == "Meet me at noon"


def test_after_the_focus_left_the_window_the_text_stays_and_the_user_is_told(
        x_display: str, qt_window: Receiver, tmp_path: Path) -> None:
    other = open_qt_receiver(x_display, tmp_path, "Other")
    qt_window.focus()
    driver = drive(x_display, ["Keep these words.", "<pause>", "<pause>", "Scratch that."])
    try:
        said(driver, "paused")
        other.focus()  # the user went elsewhere (and may have typed in either window)
        assert driver.stdin is not None
        driver.stdin.write("\n")
        driver.stdin.flush()
        said(driver, "paused")
        qt_window.focus()
        driver.stdin.write("\n")
        driver.stdin.flush()
        assert said(driver, "done") == [f"notice {TakeBackRefusal.FOCUS_LEFT.value}"]
        finish(driver)
        assert settled_text(qt_window.read) == "Keep these words."
    finally:
        other.close()

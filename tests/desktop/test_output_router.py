"""The output router puts post-processed committed text into another app's window, by typing
and by pasting; after pasting the clipboard (and PRIMARY, for xterm) holds what it held before.

The router runs in a child process on the session's Xvfb (Qt's xcb platform, a real X
clipboard). The committed deltas are fed in directly here; the end-to-end tests drive it from
real dictation.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from output_desktop import (
    HERE,
    ROOT,
    Receiver,
    clipboard_text,
    set_clipboard_text,
)

DELTAS = [" Grüße aus Köln comma", " ça va question", " mark", None, " Um, the rest is here."]
EXPECTED = "Grüße aus Köln, ça va? The rest is here."


def run_router(display: str, mode: str, deltas: list[str | None]) -> subprocess.Popen[str]:
    """Start the driver and wait until it says the text is out; it keeps serving the clipboard."""
    env = dict(os.environ, DISPLAY=display, QT_QPA_PLATFORM="xcb", PYTHONPATH=str(ROOT))
    driver = subprocess.Popen([sys.executable, str(HERE / "output_driver.py"), mode, json.dumps(deltas)],
                              env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert driver.stdout is not None
    line = driver.stdout.readline().strip()
    assert line == "done", f"the driver said {line!r}"
    return driver


def stop(driver: subprocess.Popen[str]) -> None:
    assert driver.stdin is not None and driver.stdout is not None
    driver.stdin.close()
    driver.wait(timeout=30)
    driver.stdout.close()  # or a ResourceWarning (warnings are errors)


def test_typing_mode_types_processed_text_into_the_focused_qt_window(x_display: str, qt_window: Receiver) -> None:
    stop(run_router(x_display, "type", DELTAS))
    assert qt_window.wait_for_text(EXPECTED) == EXPECTED


def test_paste_mode_pastes_into_a_qt_window_and_restores_the_clipboard(x_display: str, qt_window: Receiver) -> None:
    owner = set_clipboard_text(x_display, "what the user copied ✓")
    driver = run_router(x_display, "paste", DELTAS)
    try:
        assert qt_window.wait_for_text(EXPECTED) == EXPECTED
        assert clipboard_text(x_display) == "what the user copied ✓"
    finally:
        stop(driver)
        owner.kill()
        owner.wait()


def test_paste_mode_uses_shift_insert_in_xterm_and_restores_both_selections(x_display: str, xterm: Receiver) -> None:
    owners = [set_clipboard_text(x_display, "clip before"), set_clipboard_text(x_display, "primary before", "primary")]
    driver = run_router(x_display, "paste", [*DELTAS, None, " new line"])
    try:
        assert xterm.wait_for_text("\n") == EXPECTED + "\n"
        assert clipboard_text(x_display) == "clip before"
        assert clipboard_text(x_display, "primary") == "primary before"
    finally:
        stop(driver)
        for owner in owners:
            owner.kill()
            owner.wait()

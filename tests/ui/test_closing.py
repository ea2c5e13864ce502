"""Closing the window: it asks first while a file is being transcribed (as while dictating), and
with the global hotkey on (the default) it closes to the tray and, the first time, says so."""

from __future__ import annotations

import copy
from pathlib import Path

from gui_helpers import open_window
from test_job_progress import long_recording

from app.controller.app_controller import AppController
from app.controller.states import JobState
from app.ui.main_window import MainWindow
from app.ui.tray import STILL_RUNNING_TITLE, Tray


def test_closing_while_a_file_is_transcribed_asks_first(qtbot, parts, tmp_path: Path) -> None:
    window = open_window(qtbot, parts)
    jobs = window.controller.jobs
    (added,) = jobs.add([long_recording(tmp_path / "lecture.wav", 60.0)])
    qtbot.waitUntil(lambda: jobs.jobs[added.id].state == JobState.TRANSCRIBING, timeout=300_000)
    asked: list[int] = []
    window.confirm_quit_jobs = lambda _parent, running: asked.append(running) or False  # "No"

    window.close()

    assert asked == [1]
    assert window.isVisible() and not jobs.jobs[added.id].state.finished  # still transcribing
    jobs.cancel(added.id)
    qtbot.waitUntil(lambda: jobs.pending() == 0, timeout=300_000)


def _window_with_tray(qtbot, parts) -> tuple[MainWindow, Tray]:  # type: ignore[no-untyped-def]
    tray = Tray()
    tray.available = True  # offscreen Qt has no system tray; the window's choice is what is tested
    window = MainWindow(AppController(parts), tray)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window, tray


def test_closing_goes_to_the_tray_by_default_and_says_so_once(qtbot, parts) -> None:
    window, tray = _window_with_tray(qtbot, parts)
    assert window.controller.settings.output.hotkey  # the global hotkey is on by default

    assert window.close() is False  # the close was turned into hiding: Earshot runs on
    assert not window.isVisible()
    assert tray.last_message is not None and tray.last_message[0] == STILL_RUNNING_TITLE
    assert "tray" in tray.last_message[1] and "quit" in tray.last_message[1]

    window.bring_to_front()
    tray.last_message = None
    assert window.close() is False
    assert not window.isVisible() and tray.last_message is None  # said once, not at every close

    settings = copy.deepcopy(window.controller.settings)
    settings.output.hotkey = ""  # no global hotkey: closing quits
    window.controller.apply_settings(settings)
    window.bring_to_front()
    assert window.close() is True  # closed for good: Earshot quits
    assert not window.isVisible()

"""The window's private files and diagnostics: under umask 022, what the GUI writes (settings,
window state, log) is 0600 in 0700 folders; a failed file job is logged with its traceback; the
About box shows and links the log. Real Qt widgets (offscreen), the real tiny.en model."""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from earshot_testing import too_open
from gui_helpers import open_window, wait_model_ready
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QLabel, QMessageBox

from app.diagnostics import log_file_path


@pytest.fixture
def app_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The log as app.cli.main configures it, in this process, undone afterwards."""
    from app.diagnostics import configure_logging

    monkeypatch.setenv("EARSHOT_LOG_DIR", str(tmp_path / "logs"))
    root, app_logger = logging.getLogger(), logging.getLogger("app")
    saved = (list(root.handlers), root.level, app_logger.level, sys.excepthook, threading.excepthook)
    path = configure_logging()
    assert path is not None
    yield path
    for handler in [h for h in root.handlers if h not in saved[0]]:
        root.removeHandler(handler)
        handler.close()
    root.setLevel(saved[1])
    app_logger.setLevel(saved[2])
    sys.excepthook, threading.excepthook = saved[3], saved[4]


def test_a_file_job_that_fails_in_the_window_is_logged_with_its_traceback(qtbot, parts, app_log: Path,
                                                                          tmp_path: Path) -> None:
    broken = tmp_path / "voice-memo.mp3"
    broken.write_bytes(b"ID3\x03\x00 this is not really an mp3" * 20)
    window = open_window(qtbot, parts)
    jobs = window.controller.jobs
    window.controller.add_files([broken])
    qtbot.waitUntil(lambda: len(jobs.jobs) == 1 and jobs.pending() == 0, timeout=300_000)
    wait_model_ready(qtbot, window)
    text = app_log.read_text()
    assert f"transcribing {broken} failed" in text, text
    assert "Traceback (most recent call last)" in text and "AudioDecodeError" in text, text
    assert "model tiny.en loaded:" in text  # model loads are logged (name, precision, provider, time)


def test_about_box_shows_and_links_the_log(qtbot, parts) -> None:
    window = open_window(qtbot, parts, load=False)
    window.actions_["about"].trigger()
    box = window.findChild(QMessageBox, "aboutBox")
    assert box is not None and box.isVisible()
    assert str(log_file_path()) in box.text()
    assert f'href="file://{log_file_path().parent}"' in box.text()
    label = next(lbl for lbl in box.findChildren(QLabel) if str(log_file_path()) in lbl.text())
    assert label.openExternalLinks()
    box.close()


def test_files_the_window_writes_are_private_under_umask_022(qtbot, parts, app_log: Path, app_dirs: Path) -> None:
    import copy

    old_umask = os.umask(0o022)
    try:
        window = open_window(qtbot, parts)
        wait_model_ready(qtbot, window)
        settings = copy.deepcopy(window.controller.settings)
        settings.output.mode = "window"
        assert window.controller.apply_settings(settings) is None
        window.quitting = True
        window.close()
    finally:
        os.umask(old_umask)
    settings_file = app_dirs / "config" / "settings.toml"
    window_state = Path(QSettings().fileName())
    assert settings_file.is_file() and window_state.is_file() and app_log.is_file()
    assert window_state.is_relative_to(app_dirs / "qt")
    assert too_open([settings_file.parent, window_state.parent, app_log.parent]) == []

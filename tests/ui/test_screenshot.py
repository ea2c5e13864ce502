"""Under Xvfb (a real X server, Qt's xcb platform), the main window after a dictation is saved
as a picture (to tmp_path, so a test run leaves the tree clean; the README's docs/screenshot.png
is made the same way by packaging/make_screenshot.py). Real engine, real dictation replay."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from earshot_testing import xvfb
from gui_helpers import CLIPS, DATA, normalized
from PySide6.QtGui import QImage

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def xvfb_display() -> Iterator[str]:
    """A private Xvfb server; yields its DISPLAY (":N"), chosen by Xvfb itself."""
    with xvfb() as display:
        yield display


def test_screenshot_after_dictation(xvfb_display: str, tmp_path: Path) -> None:
    screenshot = tmp_path / "screenshot.png"
    env = dict(os.environ, DISPLAY=xvfb_display, QT_QPA_PLATFORM="xcb", PYTHONPATH=str(ROOT))
    result = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("screenshot_session.py")), str(screenshot),
         str(tmp_path), str(DATA / "espeak_meeting.wav"), str(DATA / "espeak_weather.wav")],
        env=env, capture_output=True, text=True, timeout=600, cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert normalized(report["committed"]) == normalized(CLIPS["espeak_meeting.wav"]["text"])

    image = QImage(str(screenshot))
    assert (image.width(), image.height()) == (report["width"], report["height"]) == (1180, 740)
    colours = {image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)}
    assert len(colours) > 40, "the screenshot is (nearly) blank"

"""Make the README's picture, docs/screenshot.png: the main window after a file job and a
dictation, on a private Xvfb display (Qt's xcb platform), with the real engine.

    python packaging/make_screenshot.py [OUT.png]

Runs tests/ui/screenshot_session.py (the same session tests/ui/test_screenshot.py checks,
which writes its picture to a temporary folder so a test run leaves the tree clean).
Needs Xvfb; takes a minute or two.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
SESSION = ROOT / "tests" / "ui" / "screenshot_session.py"


def main(argv: list[str]) -> int:
    target = Path(argv[0]) if argv else ROOT / "docs" / "screenshot.png"
    sys.path.insert(0, str(ROOT / "tests"))
    from earshot_testing import xvfb

    with xvfb() as display, tempfile.TemporaryDirectory(prefix="earshot-screenshot-") as state:
        env = dict(os.environ, DISPLAY=display, QT_QPA_PLATFORM="xcb", PYTHONPATH=str(ROOT))
        result = subprocess.run(
            [sys.executable, str(SESSION), str(target), state, str(DATA / "espeak_meeting.wav"),
             str(DATA / "espeak_weather.wav")],
            env=env, text=True, timeout=600, cwd=ROOT,
        )
    if result.returncode == 0:
        print(f"wrote {target}")
    return result.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

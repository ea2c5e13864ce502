"""The first focus with a real window (Xvfb, Qt's xcb platform, real X key presses): Record has
it once the model has loaded (Record is disabled while it loads, and Qt moved the focus to the
microphone list, where it stayed), and Tab goes round the window back to Record."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from earshot_testing import xvfb

ROOT = Path(__file__).resolve().parents[2]


def test_record_has_the_first_focus_after_the_model_loads(tmp_path: Path) -> None:
    with xvfb("xdotool") as display:
        env = dict(os.environ, DISPLAY=display, QT_QPA_PLATFORM="xcb", PYTHONPATH=str(ROOT))
        result = subprocess.run([sys.executable, str(Path(__file__).with_name("focus_session.py")), str(tmp_path)],
                                env=env, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["model"] == "READY"
    assert report["first"] == "Record", report
    stops = report["stops"]
    assert stops[0] == "Input device"
    # one round of the window (12 stops since "Test microphone" joined the microphone menu)
    assert "Record" in stops and stops.index("Record") + 1 <= 12, stops
    assert stops[1] == "Test microphone"
    assert stops[stops.index("Record") + 1] == "Input device"  # and round again

"""The window at QT_SCALE_FACTOR=1.5 on a 1280x800 screen (853x533 in Qt's units), with a real
X server (Xvfb): it opens within the screen, every toolbar button (Settings too) is in view
rather than behind the overflow arrow, History names are drawn whole, and the empty History's
hint shows every line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from earshot_testing import xvfb

ROOT = Path(__file__).resolve().parents[2]


def test_at_one_and_a_half_scale_nothing_is_cut_or_hidden(tmp_path: Path) -> None:
    with xvfb() as display:
        env = dict(os.environ, DISPLAY=display, QT_QPA_PLATFORM="xcb", QT_SCALE_FACTOR="1.5",
                   PYTHONPATH=str(ROOT))
        result = subprocess.run([sys.executable, str(Path(__file__).with_name("scale_session.py")), str(tmp_path)],
                                env=env, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["scale"] == 1.5 and report["screen"][0] < 900
    assert report["window"][0] <= report["screen"][0] and report["window"][1] <= report["screen"][1]
    toolbar = report["toolbar"]
    assert not toolbar["overflow"] and all(toolbar["buttons"].values()), toolbar
    assert {"Settings", "History"} <= set(toolbar["buttons"])
    for entry in report["history"]:
        assert entry["drawn"] == entry["name"], entry  # not "The…" or "Q4…ll"
    assert report["hint"]["fits"] and "zebra" in report["hint"]["text"], report["hint"]


def test_at_the_smallest_window_width_settings_stays_in_the_toolbar(qtbot, parts) -> None:
    """640 px wide (the window's minimum; a 1024x768 screen at 1.5 leaves 683): the buttons show
    icons only, with their names in tooltips, and none goes behind the overflow arrow."""
    from gui_helpers import open_window
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QToolBar, QToolButton

    window = open_window(qtbot, parts, load=False)
    window.resize(window.minimumWidth(), 480)
    toolbar = window.findChild(QToolBar, "mainToolbar")
    qtbot.waitUntil(lambda: toolbar.width() <= window.minimumWidth())
    assert toolbar.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonIconOnly
    extension = toolbar.findChild(QToolButton, "qt_toolbar_ext_button")
    qtbot.waitUntil(lambda: extension is None or not extension.isVisible(), timeout=2000)
    settings = toolbar.widgetForAction(window.actions_["settings"])
    assert settings.isVisible() and toolbar.rect().contains(settings.geometry())
    assert settings.toolTip().startswith("Settings")
    window.resize(1100, 720)  # room again: the names come back
    qtbot.waitUntil(lambda: toolbar.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonTextBesideIcon)

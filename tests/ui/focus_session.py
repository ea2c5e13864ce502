"""Run by test_first_focus.py in a child process on an Xvfb display (Qt's xcb platform): open the
window as `earshot` does, let the real model load, give the window the X input focus, then press
Tab (real X key events, xdotool) round the window. Prints one JSON line:
{"first": focused widget's name, "stops": [names after each Tab]}.

    DISPLAY=:N python tests/ui/focus_session.py STATE_DIR
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QEventLoop, QSettings, QTimer
from PySide6.QtWidgets import QApplication, QWidget

from app.composition import build_parts
from app.controller.app_controller import AppController
from app.controller.states import ModelState
from app.ui.main_window import MainWindow
from app.ui.theme import apply_theme

TABS = 14


def pause(ms: int) -> None:
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def name(widget: QWidget | None) -> str:
    return (widget.accessibleName() or type(widget).__name__) if widget is not None else ""


def main(state: Path) -> int:
    app = QApplication(["earshot"])
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(state / "qt"))
    apply_theme(app)
    controller = AppController(build_parts(state / "settings.toml", state / "history.sqlite3"))
    window = MainWindow(controller, tray=None)
    window.show()
    controller.start()  # Record is disabled until the model has loaded
    for _ in range(3000):
        pause(100)
        if controller.models.state in (ModelState.READY, ModelState.FAILED) and window.microphones.listed:
            break
    subprocess.run(["xdotool", "windowfocus", "--sync", str(int(window.winId()))], env=os.environ, check=True)
    pause(500)
    first = name(QApplication.focusWidget())
    stops = []
    for _ in range(TABS):
        subprocess.run(["xdotool", "key", "Tab"], env=os.environ, check=True)
        pause(150)
        stops.append(name(QApplication.focusWidget()))
    print(json.dumps({"first": first, "stops": stops, "model": controller.models.state.name}))
    controller.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))

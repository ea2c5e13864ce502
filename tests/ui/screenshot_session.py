"""Run by test_screenshot.py in a child process on an Xvfb display (Qt's xcb platform):
transcribe a file, dictate a replayed clip through the real dictation path, then save a
screenshot of the main window as the X server shows it.

    DISPLAY=:N python tests/ui/screenshot_session.py OUT.png STATE_DIR CLIP.wav FILE.wav

Prints one JSON line: {"committed": ..., "width": ..., "height": ...}.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from PySide6.QtCore import QEventLoop, QSettings, QTimer
from PySide6.QtWidgets import QApplication

from app.composition import build_parts
from app.controller.app_controller import AppController
from app.controller.ports import AudioSource
from app.controller.states import ModelState, RecordState
from app.ui.main_window import MainWindow
from app.ui.theme import apply_theme

WINDOW_SIZE = (1180, 740)
TIMEOUT_MS = 300_000


def wait_until(condition, timeout_ms: int = TIMEOUT_MS) -> None:  # type: ignore[no-untyped-def]
    waited = 0
    while not condition():
        if waited > timeout_ms:
            raise TimeoutError("the app did not get there in time")
        pause(50)
        waited += 50


def pause(ms: int) -> None:
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def main(out: Path, state: Path, clip: Path, file: Path) -> int:
    app = QApplication(["earshot"])
    app.setApplicationName("Earshot")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(state / "qt"))
    apply_theme(app)
    controller = AppController(build_parts(state / "settings.toml", state / "history.sqlite3"))
    window = MainWindow(controller, tray=None)
    window.move(0, 0)
    window.resize(*WINDOW_SIZE)
    window.show()
    controller.start()
    wait_until(lambda: controller.models.state in (ModelState.READY, ModelState.FAILED))
    controller.add_files([file])
    wait_until(lambda: controller.jobs.pending() == 0)
    controller.dictation.source_override = AudioSource(replay_file=clip, realtime=False)
    window.record_bar.button.click()
    wait_until(lambda: controller.dictation.state in (RecordState.IDLE, RecordState.ERROR))
    if controller.dictation.state == RecordState.ERROR:
        raise RuntimeError(controller.dictation.reason)
    window.history_panel.list.setCurrentRow(0)
    pause(600)  # let the X server show the last repaint
    shot = app.primaryScreen().grabWindow(0, window.x(), window.y(), window.width(), window.height())
    out.parent.mkdir(parents=True, exist_ok=True)
    if not shot.save(str(out)):
        raise OSError(f"could not write {out}")
    print(json.dumps({"committed": window.transcript.committed_text, "width": shot.width(),
                      "height": shot.height()}))
    controller.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main(*(Path(a) for a in sys.argv[1:5])))

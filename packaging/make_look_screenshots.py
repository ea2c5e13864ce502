"""Make the pictures under docs/screenshots/ of the window's look: Settings (tabs, catalog,
import steps, Window tab), the first start, a History search, file jobs in the light and dark
themes, the dictation pill, and the window at QT_SCALE_FACTOR=1.5. Real engine, private Xvfb.

    python packaging/make_look_screenshots.py [OUT_DIR]
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"


def pause(ms: int) -> None:
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def wait(condition, timeout_ms: int = 300_000) -> None:  # type: ignore[no-untyped-def]
    for _ in range(timeout_ms // 50):
        if condition():
            return
        pause(50)
    raise TimeoutError("the app did not get there in time")


def shoot(widget, out: Path, name: str) -> None:  # type: ignore[no-untyped-def]
    pause(400)
    if not widget.grab().save(str(out / name)):
        raise OSError(f"could not write {out / name}")


def session(out: Path, state: Path) -> int:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from app.composition import build_parts
    from app.controller.app_controller import AppController
    from app.controller.states import ModelState, RecordState
    from app.engine.models.import_steps import ImportStep
    from app.history.store import EntryKind
    from app.ui.indicator import DictationIndicator
    from app.ui.main_window import MainWindow
    from app.ui.settings_dialog import SettingsDialog
    from app.ui.theme import apply_theme

    app = QApplication(["earshot"])
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(state / "qt"))
    apply_theme(app)
    parts = build_parts(state / "settings.toml", state / "history.sqlite3")
    controller = AppController(parts)
    window = MainWindow(controller, tray=None)
    window.resize(1040, 680)
    window.show()
    controller.start()
    wait(lambda: controller.models.state in (ModelState.READY, ModelState.FAILED) and window.microphones.listed)
    shoot(window, out, "first-start.png")

    dialog = SettingsDialog(controller, window)
    dialog.show()
    shoot(dialog, out, "settings-model-tab.png")
    dialog.import_panel.name.setText("meetings")
    dialog.import_panel.starting(Path("/home/me/whisper-small-ct2"))
    dialog.import_panel.show_step(ImportStep.CONVERTING)  # the picture of one step, not an import
    shoot(dialog, out, "settings-import-steps.png")
    dialog.tabs.setCurrentWidget(dialog.models_page)
    shoot(dialog, out, "settings-download-models.png")
    dialog.tabs.setCurrentWidget(dialog.window_page)
    shoot(dialog, out, "settings-window-tab.png")
    dialog.close()

    filler = " ".join(f"Item {i} of the quarterly numbers was read out." for i in range(80))
    parts.history.create(EntryKind.FILE, "Q4 board call recording.wav", "/recordings/Q4 board call recording.wav",
                         f"{filler} Then Grafana came up as the dashboard to use. {filler}")
    window.history_panel.search.setText("grafana")
    pause(500)
    shoot(window, out, "history-search-hit.png")
    window.history_panel.search.setText("zebra")
    pause(500)
    shoot(window, out, "history-no-match.png")
    window.history_panel.search.clear()

    controller.add_files([DATA / "espeak_weather.wav", DATA / "espeak_meeting.wav"])
    wait(lambda: controller.jobs.pending() == 0)
    shoot(window, out, "jobs-light.png")
    settings = controller.settings.__class__()
    settings.window.theme = "dark"
    controller.apply_settings(settings)
    shoot(window, out, "jobs-dark.png")
    settings.window.theme = "light"
    controller.apply_settings(settings)

    pill = DictationIndicator(hint="ctrl+alt+space")
    pill.avoid = window
    pill.set_state(RecordState.LISTENING)
    shoot(pill, out, "pill-listening.png")
    pill.set_state(RecordState.ERROR, "The microphone “USB Audio Device Analog Stereo” stopped delivering audio "
                   "(it was unplugged or another program took it): plug it in again, or choose another one "
                   "in the list beside Record.")
    shoot(pill, out, "pill-error.png")
    controller.shutdown()
    return 0


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(ROOT / "tests"))
    from earshot_testing import xvfb

    with xvfb() as display, tempfile.TemporaryDirectory(prefix="earshot-look-") as state:
        env = dict(os.environ, DISPLAY=display, QT_QPA_PLATFORM="xcb", PYTHONPATH=str(ROOT))
        code = subprocess.run([sys.executable, __file__, "--session", str(out), state], env=env, cwd=ROOT,
                              timeout=900).returncode
        if code == 0:
            scaled = dict(env, QT_SCALE_FACTOR="1.5")
            code = subprocess.run([sys.executable, str(ROOT / "tests" / "ui" / "scale_session.py"),
                                   str(Path(state) / "scaled"), str(out / "scaled-1.5.png")],
                                  env=scaled, cwd=ROOT, timeout=300, stdout=subprocess.DEVNULL).returncode
    if code == 0:
        print(f"wrote {out}")
    return code


if __name__ == "__main__":
    if sys.argv[1:2] == ["--session"]:
        sys.exit(session(Path(sys.argv[2]), Path(sys.argv[3])))
    sys.exit(main(sys.argv[1:]))

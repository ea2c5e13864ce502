"""Make docs/screenshots/microphone.png and microphone-list.png: the record bar with a long
microphone name cut to fit the menu, the level meter under it as it looks while dictating, and the
menu open with every name whole; on a private PulseAudio with three microphones, offscreen.

    python packaging/make_microphone_screenshot.py [OUT.png]

Needs pulseaudio and pulseaudio-utils; takes a few seconds (no model is loaded).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MICROPHONES = (("builtin", "Built-in Audio Analog Stereo"), ("jabra", "Jabra Evolve 20 Mono"),
               ("gaming", "Logitech G Pro X Wireless Lightspeed Gaming Headset Analog Mono"))


def _picture(target: Path, state: Path) -> None:
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QPainter
    from PySide6.QtWidgets import QApplication

    from app.audio.capture import rescan_devices
    from app.composition import build_parts
    from app.controller.app_controller import AppController
    from app.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    rescan_devices()
    controller = AppController(build_parts(state / "settings.toml", state / "history.sqlite3"))
    window = MainWindow(controller, tray=None)
    window.resize(1000, 420)
    window.show()
    while not window.microphones.listed:
        app.processEvents()
    combo = window.record_bar.devices
    combo.setCurrentIndex(combo.count() - 1)
    combo.activated.emit(combo.count() - 1)
    window.record_bar.meter.set_level(0.2)
    for _ in range(20):
        app.processEvents()
    window.grab().toImage().copy(0, 0, window.width(), 200).save(str(target))  # the name cut to fit
    combo.showPopup()  # and the open list with every name whole
    for _ in range(20):
        app.processEvents()
    image = window.grab().toImage()
    popup = combo.view().window()
    painter = QPainter(image)
    painter.drawPixmap(window.mapFromGlobal(popup.mapToGlobal(QPoint(0, 0))), popup.grab())
    painter.end()
    image.copy(0, 0, window.width(), 200).save(str(target.with_name(target.stem + "-list.png")))
    window.quitting = True
    controller.shutdown()


def main(argv: list[str]) -> int:
    target = Path(argv[0]) if argv else ROOT / "docs" / "screenshots" / "microphone.png"
    sys.path.insert(0, str(ROOT / "tests"))
    from earshot_testing import private_pulseaudio

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    with tempfile.TemporaryDirectory(prefix="earshot-mic-") as state:
        runtime = Path(state) / "xdg"
        runtime.mkdir(mode=0o700)
        with private_pulseaudio(runtime, Path(state) / "pulse.log") as (env, _proc):
            os.environ["XDG_RUNTIME_DIR"] = env["XDG_RUNTIME_DIR"]
            for name, description in MICROPHONES:
                subprocess.run(["pactl", "load-module", "module-null-source", f"source_name={name}",
                                f"description='{description}'"], env=env, check=True, capture_output=True)
            subprocess.run(["pactl", "set-default-source", "builtin"], env=env, check=True)
            _picture(target, Path(state))
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

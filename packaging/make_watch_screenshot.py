"""Make docs/screenshots/watch-folders.png: Settings > Watch folders with two watched folders, the
second selected, writing subtitles and JSON into an output folder of its own (the first keeps the
default: a .txt beside each media file); offscreen, no model loaded.

    python packaging/make_watch_screenshot.py [OUT.png]
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _picture(target: Path, state: Path) -> None:
    from PySide6.QtWidgets import QApplication

    from app.composition import build_parts
    from app.controller.app_controller import AppController
    from app.settings.schema import WatchFolder
    from app.ui.main_window import MainWindow
    from app.ui.settings_dialog import SettingsDialog

    app = QApplication.instance() or QApplication([])
    parts = build_parts(state / "settings.toml", state / "history.sqlite3")
    settings = parts.settings_store.load().settings
    settings.window.watch_folders = [
        WatchFolder("/home/sam/Recordings/Voice memos"),
        WatchFolder("/srv/lectures/incoming", ["srt", "vtt", "json"], "/srv/lectures/subtitles")]
    parts.settings_store.save(settings)
    controller = AppController(parts)
    window = MainWindow(controller, tray=None)
    window.show()
    dialog = SettingsDialog(controller, window)
    dialog.tabs.setCurrentWidget(dialog.watch_page)
    dialog.resize(760, 520)
    dialog.show()
    for _ in range(10):
        app.processEvents()
    dialog.watch_page.list.setCurrentRow(1)  # once laid out at its size: nothing scrolled
    for _ in range(10):
        app.processEvents()
    dialog.grab().save(str(target))
    dialog.reject()
    window.quitting = True
    controller.shutdown()


def main(argv: list[str]) -> int:
    target = Path(argv[0]) if argv else ROOT / "docs" / "screenshots" / "watch-folders.png"
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory(prefix="earshot-watch-screenshot-") as state:
        _picture(target, Path(state))
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Run by test_scaled_window.py in a child process on an Xvfb display (Qt's xcb platform), with
QT_SCALE_FACTOR set by the caller: open the window as on a first start with two History entries,
and report what a user sees as one JSON line; OUT.png (optional) gets a screenshot.

    DISPLAY=:N QT_SCALE_FACTOR=1.5 python tests/ui/scale_session.py STATE_DIR [OUT.png]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from PySide6.QtCore import QEventLoop, QSettings, QTimer
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QApplication, QToolBar, QToolButton

from app.composition import build_parts
from app.controller.app_controller import AppController
from app.history.store import EntryKind
from app.ui.history_delegate import FILE_ROLE, NAME_ROLE, WHEN_ROLE, title_layout
from app.ui.main_window import MainWindow
from app.ui.theme import apply_theme

NAMES = ("The weekly planning meeting", "Q4 board call recording.wav")


def pause(ms: int) -> None:
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def toolbar_report(window: MainWindow) -> dict[str, object]:
    toolbar = window.findChild(QToolBar, "mainToolbar")
    shown = {}
    for action in toolbar.actions():
        button = toolbar.widgetForAction(action)
        if button is not None and action.text():
            inside = toolbar.rect().contains(button.geometry())
            shown[action.text().replace("&", "").rstrip("…")] = button.isVisible() and inside
    extension = toolbar.findChild(QToolButton, "qt_toolbar_ext_button")
    return {"buttons": shown, "overflow": bool(extension and extension.isVisible())}


def history_report(window: MainWindow) -> list[dict[str, object]]:
    items = window.history_panel.list
    bold = QFont(items.font())
    bold.setBold(True)
    drawn = []
    for row in range(items.count()):
        item = items.item(row)
        width = items.visualItemRect(item).adjusted(10, 7, -10, -7).width()
        name, below = title_layout(str(item.data(NAME_ROLE)), str(item.data(WHEN_ROLE)), QFontMetrics(bold),
                                   width, bool(item.data(FILE_ROLE)))
        drawn.append({"name": str(item.data(NAME_ROLE)), "drawn": name, "stamp_below": below})
    return drawn


def hint_report(window: MainWindow) -> dict[str, object]:
    panel = window.history_panel
    panel.search.setText("zebra")
    pause(400)
    hint = panel.hint
    fits = (hint.isVisible() and panel.list.viewport().rect().contains(hint.geometry())
            and hint.heightForWidth(hint.width()) <= hint.height())
    text = hint.text()
    panel.search.clear()
    pause(400)
    return {"fits": fits, "text": text}


def main(state: Path, out: Path | None) -> int:
    app = QApplication(["earshot"])
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(state / "qt"))
    apply_theme(app)
    parts = build_parts(state / "settings.toml", state / "history.sqlite3")
    parts.history.create(EntryKind.DICTATION, NAMES[0], text="We moved the release to Thursday.")
    parts.history.create(EntryKind.FILE, NAMES[1], f"/recordings/{NAMES[1]}", "Revenue grew in the quarter.")
    window = MainWindow(AppController(parts), tray=None)
    window.show()
    pause(1500)
    screen = app.primaryScreen().availableGeometry()
    report = {"screen": [screen.width(), screen.height()], "window": [window.width(), window.height()],
              "scale": window.devicePixelRatio(), "toolbar": toolbar_report(window),
              "history": history_report(window), "hint": hint_report(window)}
    if out is not None:
        shot = app.primaryScreen().grabWindow(0, window.x(), window.y(), window.width(), window.height())
        shot.save(str(out))
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) > 2 else None))

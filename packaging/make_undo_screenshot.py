"""Make docs/screenshots/transcript-undo.png and transcript-cleared.png: a dictated text replaced by
a slip (Ctrl+A, "x") with the Edit menu open on Undo edit, and the window just after Clear, its
status bar saying Ctrl+Z brings the text back. Offscreen; no model is loaded (the text is put into
the transcript and its History entry as a dictation's commits are).

    python packaging/make_undo_screenshot.py [OUT_DIR]
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DICTATED = ("Good morning everyone. Today we will review the budget for the next quarter and plan "
            "the new website.")


def _pictures(out: Path, state: Path) -> None:
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtGui import QPainter
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QMenu

    from app.composition import build_parts
    from app.controller.app_controller import AppController
    from app.history.store import EntryKind
    from app.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    controller = AppController(build_parts(state / "settings.toml", state / "history.sqlite3"))
    window = MainWindow(controller, tray=None)
    window.resize(1000, 420)
    window.show()

    def settle() -> None:
        for _ in range(20):
            app.processEvents()

    view = window.transcript
    view.start_session(controller.history.create(EntryKind.DICTATION, ""))
    view.append_committed(DICTATED)
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(view, "x")  # the slip
    settle()
    edit = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Edit")
    assert isinstance(edit, QMenu)
    edit.popup(window.mapToGlobal(window.menuBar().actionGeometry(edit.menuAction()).bottomLeft()))
    settle()
    image = window.grab().toImage()
    painter = QPainter(image)
    painter.drawPixmap(window.mapFromGlobal(edit.mapToGlobal(QPoint(0, 0))), edit.grab())
    painter.end()
    image.save(str(out / "transcript-undo.png"))
    edit.hide()

    QTest.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # the dictation is back
    window.actions_["clear"].trigger()
    settle()
    window.grab().save(str(out / "transcript-cleared.png"))
    window.quitting = True
    controller.shutdown()


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "docs" / "screenshots"
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    with tempfile.TemporaryDirectory(prefix="earshot-undo-") as state:
        _pictures(out, Path(state))
    print(f"wrote {out / 'transcript-undo.png'} and {out / 'transcript-cleared.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

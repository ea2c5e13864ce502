"""What closing the window asks or says: quit while dictating or transcribing files, and where
Earshot went when it closes to the tray."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox, QWidget

from app.ui.tray import Tray

QuitQuestion = Callable[[QWidget], bool]
"""(parent) -> quit anyway while dictating (a dialog; tests replace it)."""
JobsQuitQuestion = Callable[[QWidget, int], bool]
"""(parent, number of files still being transcribed) -> quit anyway (a dialog; tests replace it)."""
TOLD_ABOUT_TRAY = "window/told_close_to_tray"
"""QSettings key: set once the first close to the tray has said where Earshot went."""


def say_where_earshot_went(tray: Tray | None) -> None:
    """The first close to the tray (ever, for this user) says where Earshot is and how to quit."""
    store = QSettings()
    if tray is None or store.value(TOLD_ABOUT_TRAY, False, bool):
        return
    tray.say_still_running()
    store.setValue(TOLD_ABOUT_TRAY, True)


def ask_quit_while_dictating(parent: QWidget) -> bool:
    answer = QMessageBox.question(
        parent,
        "Quit Earshot?",
        "Dictation is still running. Quit anyway? Text committed so far is saved in History.",
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.No,
    )
    return answer == QMessageBox.StandardButton.Yes


def ask_quit_while_transcribing(parent: QWidget, running: int) -> bool:
    files = "A file is" if running == 1 else f"{running} files are"
    answer = QMessageBox.question(
        parent,
        "Quit Earshot?",
        f"{files} still being transcribed. Quit anyway? Transcription stops and the files not yet "
        "done have no transcript.",
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.No,
    )
    return answer == QMessageBox.StandardButton.Yes

"""The "Watch folders" page of the settings dialog: folders whose new or changed audio and video
files are transcribed as soon as they stop growing."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QHBoxLayout, QLabel, QListWidget, QPushButton, QVBoxLayout, QWidget

FolderPrompt = Callable[[QWidget], str]
"""Asks the user for a folder; "" when they cancel (tests answer for the modal dialog)."""


class WatchFoldersPage(QWidget):
    """Lists `folders`; Add… and Remove edit the list, `collect` returns it."""

    def __init__(self, folders: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.choose_folder: FolderPrompt = _folder_dialog
        intro = QLabel("New or changed audio and video files in these folders (and the folders inside them) "
                       "are transcribed once they stop growing; a file already transcribed is left alone.", self)
        intro.setWordWrap(True)
        intro.setObjectName("muted")
        self.list = QListWidget(self)
        self.list.setAccessibleName("Watch folders")
        self.list.addItems(folders)
        self.add_button = QPushButton("Add…", self)
        self.add_button.setAccessibleName("Add a watch folder")
        self.add_button.clicked.connect(self._add)
        self.remove_button = QPushButton("Remove", self)
        self.remove_button.setAccessibleName("Remove the selected watch folder")
        self.remove_button.clicked.connect(self._remove)
        self.list.currentRowChanged.connect(lambda _row: self._update_buttons())
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.list, 1)
        layout.addLayout(buttons)
        self._update_buttons()

    def collect(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]

    def _add(self) -> None:
        folder = self.choose_folder(self)
        if folder and folder not in self.collect():
            self.list.addItem(folder)
            self.list.setCurrentRow(self.list.count() - 1)

    def _remove(self) -> None:
        row = self.list.currentRow()
        if row >= 0:
            self.list.takeItem(row)
        self._update_buttons()

    def _update_buttons(self) -> None:
        self.remove_button.setEnabled(self.list.currentRow() >= 0)


def _folder_dialog(parent: QWidget) -> str:
    from PySide6.QtWidgets import QFileDialog

    return QFileDialog.getExistingDirectory(parent, "Watch a folder")

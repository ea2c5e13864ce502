"""The "Watch folders" page of the settings dialog: folders whose new or changed audio and video
files are transcribed as soon as they stop growing, each with the transcript files it writes."""

from __future__ import annotations

import copy

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QListWidget, QPushButton, QVBoxLayout, QWidget

from app.settings.schema import WatchFolder
from app.ui.watch_output_options import FolderPrompt, WatchOutputOptions


class WatchFoldersPage(QWidget):
    """Lists `folders`; Add… and Remove edit the list, the box below the selected folder's
    transcript files; `collect` returns them all."""

    def __init__(self, folders: list[WatchFolder], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.choose_folder: FolderPrompt = _folder_dialog
        self.folders = copy.deepcopy(folders)  # row i of the list is folders[i]
        intro = QLabel(
            "New or changed audio and video files in these folders (and the folders inside them) "
            "are transcribed once they stop growing; a file already transcribed is left alone. "
            "Each transcript goes to the History and into the files chosen below.",
            self,
        )
        intro.setWordWrap(True)
        intro.setObjectName("muted")
        self.list = QListWidget(self)
        self.list.setAccessibleName("Watch folders")
        self.list.addItems([f.folder for f in self.folders])
        self.add_button = QPushButton("Add…", self)
        self.add_button.setAccessibleName("Add a watch folder")
        self.add_button.clicked.connect(self._add)
        self.remove_button = QPushButton("Remove", self)
        self.remove_button.setAccessibleName("Remove the selected watch folder")
        self.remove_button.clicked.connect(self._remove)
        self.outputs = WatchOutputOptions(lambda parent: self.choose_folder(parent), self)
        self.outputs.changed.connect(self._outputs_edited)
        self.list.currentRowChanged.connect(self._selected)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.list, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.outputs)
        if self.folders:
            self.list.setCurrentRow(0)
        self._selected(self.list.currentRow())

    def showEvent(self, event: QShowEvent) -> None:
        # Rows laid out before the theme's padding reached the list overlap: lay them out again.
        self.list.doItemsLayout()
        super().showEvent(event)

    def collect(self) -> list[WatchFolder]:
        return copy.deepcopy(self.folders)

    def _add(self) -> None:
        folder = self.choose_folder(self)
        if folder and folder not in (f.folder for f in self.folders):
            self.folders.append(WatchFolder(folder))
            self.list.addItem(folder)
            self.list.setCurrentRow(self.list.count() - 1)

    def _remove(self) -> None:
        row = self.list.currentRow()
        if row >= 0:
            del self.folders[row]
            self.list.takeItem(row)
        self._selected(self.list.currentRow())

    def _selected(self, row: int) -> None:
        self.remove_button.setEnabled(row >= 0)
        self.outputs.show_folder(self.folders[row] if 0 <= row < len(self.folders) else None)

    def _outputs_edited(self, watch: WatchFolder) -> None:
        row = self.list.currentRow()
        if 0 <= row < len(self.folders):
            self.folders[row] = watch


def _folder_dialog(parent: QWidget) -> str:
    from PySide6.QtWidgets import QFileDialog

    return QFileDialog.getExistingDirectory(parent, "Choose a folder")

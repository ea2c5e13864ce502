"""Under the watch folder list: which transcript files the selected watch folder writes for each
media file (txt, srt, vtt, json), and where (beside the media file, or an output folder)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QFormLayout, QGroupBox, QHBoxLayout, QLineEdit, QPushButton, QWidget

from app.settings.schema import WATCH_FORMATS, WatchFolder

FORMAT_LABELS = {
    "txt": "Text (.txt)",
    "srt": "Subtitles (.srt)",
    "vtt": "Web subtitles (.vtt)",
    "json": "JSON with times (.json)",
}
BESIDE = "Beside each media file"

FolderPrompt = Callable[[QWidget], str]
"""Asks the user for a folder; "" when they cancel (tests answer for the modal dialog)."""


class WatchOutputOptions(QGroupBox):
    """Edits one `WatchFolder`'s formats and output folder; `changed(WatchFolder)` after each edit.
    Disabled while no folder is shown. At least one format stays checked: its box is disabled."""

    changed = Signal(object)

    def __init__(self, choose_folder: FolderPrompt, parent: QWidget | None = None) -> None:
        super().__init__("Transcript files for the selected folder", parent)
        self.choose_folder = choose_folder
        self._shown: WatchFolder | None = None
        self.format_boxes = {fmt: QCheckBox(FORMAT_LABELS[fmt], self) for fmt in WATCH_FORMATS}
        formats = QHBoxLayout()
        for box in self.format_boxes.values():
            box.toggled.connect(lambda _on: self._edited())
            formats.addWidget(box)
        formats.addStretch(1)
        self.output_field = QLineEdit(self)
        self.output_field.setReadOnly(True)
        self.output_field.setPlaceholderText(BESIDE)
        self.output_field.setAccessibleName("Output folder")
        self.choose_button = QPushButton("Choose…", self)
        self.choose_button.setAccessibleName("Choose the output folder")
        self.choose_button.clicked.connect(self._choose)
        self.beside_button = QPushButton(BESIDE, self)
        self.beside_button.setAccessibleName("Write the transcripts beside each media file")
        self.beside_button.clicked.connect(lambda: self._set_output(""))
        where = QHBoxLayout()
        where.addWidget(self.output_field, 1)
        where.addWidget(self.choose_button)
        where.addWidget(self.beside_button)
        form = QFormLayout(self)
        form.addRow("Write", formats)
        form.addRow("Save in", where)
        self.show_folder(None)

    def show_folder(self, watch: WatchFolder | None) -> None:
        """Show `watch`'s choices (None: nothing selected, everything disabled)."""
        self._shown = None  # the boxes set below are not edits
        for fmt, box in self.format_boxes.items():
            box.setChecked(watch is not None and fmt in watch.formats)
        self.output_field.setText(watch.output_dir if watch else "")
        self._shown = watch
        self.setEnabled(watch is not None)
        self._update_buttons()

    def _choose(self) -> None:
        folder = self.choose_folder(self)
        if folder:
            self._set_output(folder)

    def _set_output(self, folder: str) -> None:
        self.output_field.setText(folder)
        self._edited()

    def _edited(self) -> None:
        if self._shown is None:
            return
        formats = [fmt for fmt, box in self.format_boxes.items() if box.isChecked()]
        self._shown = dataclasses.replace(self._shown, formats=formats, output_dir=self.output_field.text())
        self._update_buttons()
        self.changed.emit(self._shown)

    def _update_buttons(self) -> None:
        checked = [box for box in self.format_boxes.values() if box.isChecked()]
        for box in self.format_boxes.values():
            box.setEnabled(not (len(checked) == 1 and box.isChecked()))  # the last format cannot go
        self.beside_button.setEnabled(bool(self.output_field.text()))

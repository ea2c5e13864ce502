""" "Export all": every finished transcript into one folder, in one format, one file per job.

File names are the inputs' stems; two jobs with the same stem (`a/talk.wav`, `b/talk.mp3`) or a
file already in the folder never collide: the later one is written as `talk-2.txt`, `talk-3.txt`, ...
(compared case-insensitively, as on Windows and macOS file systems). Nothing is overwritten. A name
that would pass the folder's limit (a media file named near it) is shortened
(`app.engine.export.file_names`); each job's row says the name written.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.controller.ports import EXPORT_FORMATS
from app.engine.export.file_names import fitted_name, name_max


@dataclass(frozen=True)
class ExportAllChoice:
    """Where and how to write: an existing or new `folder`, `fmt` one of EXPORT_FORMATS."""

    folder: Path
    fmt: str

    def __post_init__(self) -> None:
        if self.fmt not in EXPORT_FORMATS:
            raise ValueError(f"unknown export format {self.fmt!r}; expected one of {EXPORT_FORMATS}")


ExportAllPrompt = Callable[[QWidget, str, int], "ExportAllChoice | None"]
"""(parent, suggested folder, number of transcripts) -> the choice, or None when cancelled."""


def distinct_targets(stems: Sequence[str], fmt: str, folder: Path) -> list[Path]:
    """One `<folder>/<stem>.<fmt>` per stem, none equal to another or to a file in `folder`, each
    within the folder's limit on a name's length (bytes)."""
    taken = {p.name.casefold() for p in folder.iterdir()} if folder.is_dir() else set()
    limit = name_max(folder)
    targets = []
    for stem in stems:
        name, number = fitted_name(stem, f".{fmt}", limit), 1
        while name.casefold() in taken:
            number += 1
            name = fitted_name(stem, f"-{number}.{fmt}", limit)
        taken.add(name.casefold())
        targets.append(folder / name)
    return targets


class ExportAllDialog(QDialog):
    """Asks for the folder (typed or chosen) and the format."""

    def __init__(self, parent: QWidget | None, folder: str, count: int) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export all transcripts")
        self.folder = QLineEdit(folder, self)
        self.folder.setAccessibleName("Export folder")
        browse = QPushButton("Choose…", self)
        browse.setAccessibleName("Choose the export folder")
        browse.clicked.connect(self._browse)
        self.format = QComboBox(self)
        self.format.setAccessibleName("Export format")
        for fmt in EXPORT_FORMATS:
            self.format.addItem(fmt.upper(), fmt)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.folder.textChanged.connect(self._enable_save)
        self._layout(browse, count)
        self._enable_save()

    def _layout(self, browse: QPushButton, count: int) -> None:
        where = QHBoxLayout()
        where.addWidget(self.folder, 1)
        where.addWidget(browse)
        form = QFormLayout()
        form.addRow("Folder", where)
        form.addRow("Format", self.format)
        layout = QVBoxLayout(self)
        noun = "transcript" if count == 1 else "transcripts"
        layout.addWidget(QLabel(f"{count} finished {noun}, one file each; existing files are kept.", self))
        layout.addLayout(form)
        layout.addWidget(self.buttons)

    def _browse(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, "Export folder", self.folder.text())
        if chosen:
            self.folder.setText(chosen)

    def _enable_save(self) -> None:
        save = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        save.setEnabled(bool(self.folder.text().strip()))

    def choice(self) -> ExportAllChoice:
        return ExportAllChoice(Path(self.folder.text().strip()).expanduser(), self.format.currentData())


def ask_export_all(parent: QWidget, folder: str, count: int) -> ExportAllChoice | None:
    """The modal dialog; None when the user cancels."""
    dialog = ExportAllDialog(parent, folder, count)
    return dialog.choice() if dialog.exec() == QDialog.DialogCode.Accepted else None

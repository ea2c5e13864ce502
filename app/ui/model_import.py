"""Settings > Model: importing a model folder under a name the user types, with the step it is
at (copying, checking, converting, the test transcription) instead of minutes of "Importing…"."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QProgressBar, QPushButton, QVBoxLayout, QWidget

from app.controller.model_library import ModelImport
from app.engine.models.import_steps import ImportStep

STEPS = len(ImportStep)


class ImportPanel(QWidget):
    """The name field, the Import button, and while an import runs its step and a step bar."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name = QLineEdit(self)
        self.name.setAccessibleName("Name for the imported model")
        self.name.setPlaceholderText("Name (empty: the folder's name)")
        self.button = QPushButton("Import model folder…", self)
        self.button.setAccessibleName("Import model folder")
        self.button.setToolTip("A CTranslate2 or Hugging Face Whisper model folder")
        self.progress = QProgressBar(self)
        self.progress.setAccessibleName("Import progress")
        self.progress.setRange(0, STEPS)
        self.progress.setFormat(f"Step %v of {STEPS}")
        self.step = QLabel(self)
        self.step.setAccessibleName("Import step")
        self.step.setWordWrap(True)
        self._shown = ""
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.name, 1)
        row.addWidget(self.button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.progress)
        layout.addWidget(self.step)
        self._show_running(False)

    def chosen_name(self) -> str | None:
        return self.name.text().strip() or None

    def starting(self, folder: Path) -> None:
        """An import of `folder` is about to start: show it, under the name it will have."""
        self._shown = self.chosen_name() or folder.name
        self._show_running(True)
        self.progress.setValue(0)
        self.step.setText(f"Importing {self._shown}: starting…")

    def show_step(self, step: object) -> None:
        if isinstance(step, ImportStep):
            self.step.setText(f"Importing {self._shown}: step {step.number} of {STEPS}, {step.value}…")
            self.progress.setValue(step.number)

    def follow(self, call: ModelImport) -> None:
        """Back to the name field and button once `call` ends."""
        call.succeeded.connect(lambda _info: self._ended())
        call.failed.connect(lambda _error: self._ended())

    def _ended(self) -> None:
        self._show_running(False)
        self.name.clear()

    def _show_running(self, running: bool) -> None:
        self.button.setEnabled(not running)
        self.name.setEnabled(not running)
        self.progress.setVisible(running)
        self.step.setVisible(running)

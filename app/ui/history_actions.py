"""What the user can do with one history entry: edit its text and name, export it again.

Exports reuse the writers of the `transcribe` command (`app.engine.export.formats`): TXT and JSON for
any entry; SRT and VTT with the times the entry kept (a file's segments, a dictation's
utterances). An entry whose text the user edited no longer matches its times, so it is exported
as one untimed piece (TXT, JSON) and SRT/VTT say why they are unavailable.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from app.engine.export.formats import FORMATS, TranscriptMeta, write_transcript
from app.engine.types import Segment, Timings
from app.history.store import HistoryEntry, HistoryStore

log = logging.getLogger(__name__)

AskPath = Callable[[QWidget, str, str], Path | None]  # parent, suggested file name, format -> target
TIMED_FORMATS = ("srt", "vtt")


def export_formats(entry: HistoryEntry) -> list[tuple[str, str | None]]:
    """(format, why it is unavailable or None) for each export format."""
    why = None if entry.timed else (
        "the text was edited after it was transcribed, so its times no longer fit" if entry.segments
        else "this entry has no times")
    return [(fmt, why if fmt in TIMED_FORMATS else None) for fmt in FORMATS]


def export_entry(entry: HistoryEntry, fmt: str, target: Path) -> Path:
    """Write `entry` as `fmt` to `target` (its suffix is replaced by `.fmt`); raises ExportError."""
    if entry.timed:
        segments = [Segment(i, s.start, s.end, " " + s.text.strip()) for i, s in enumerate(entry.pieces)]
    elif fmt in TIMED_FORMATS:
        raise ValueError(f"{fmt.upper()} needs times: {export_formats(entry)[1][1]}")
    else:
        segments = [Segment(0, 0.0, 0.0, entry.text)]
    meta = TranscriptMeta(
        file=entry.source or entry.name, model="", precision="", language="",
        language_probability=1.0, duration_s=max((s.end for s in segments), default=0.0), timings=Timings(),
    )
    stem = target.name.removesuffix(f".{fmt}")
    return write_transcript(fmt, segments, meta, target.parent, stem, mode=0o600)


def ask_export_path(parent: QWidget, suggested: str, fmt: str) -> Path | None:
    path, _ = QFileDialog.getSaveFileName(parent, f"Export as {fmt.upper()}", suggested,
                                          f"{fmt.upper()} (*.{fmt})")
    return Path(path) if path else None


def file_stem(entry: HistoryEntry) -> str:
    """A file name for the entry's export, from its name (no characters a file system refuses)."""
    base = entry.name.rstrip("…").strip()
    if entry.title and "." in base:
        base = base.rsplit(".", 1)[0]  # "meeting.wav" -> "meeting"
    cleaned = "".join(ch if ch.isalnum() or ch in " -_" else " " for ch in base)
    return " ".join(cleaned.split()) or "transcript"


class EntryEditor(QDialog):
    """One entry's name and text, editable; Save writes both to the history. An entry the user
    edited shows the text as it was transcribed beside the edited one, with Revert."""

    saved = Signal()

    def __init__(self, history: HistoryStore, entry: HistoryEntry, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.history, self.entry_id = history, entry.id
        self.setWindowTitle(entry.name)
        self.setAccessibleName(f"Transcript {entry.name}")
        self.resize(640, 480)
        self.name = QLineEdit(entry.title, self)
        self.name.setPlaceholderText(entry.name)
        self.name.setAccessibleName("Name")
        self.text = QPlainTextEdit(entry.text, self)
        self.text.setAccessibleName("Transcript text")
        self.original = QPlainTextEdit(entry.original, self)
        self.original.setReadOnly(True)
        self.original.setAccessibleName("Text as transcribed")
        self.original_label = QLabel("As transcribed", self)
        self.edited_label = QLabel("Edited", self)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Close,
                                   self)
        self.save_button = buttons.button(QDialogButtonBox.StandardButton.Save)
        copy = buttons.addButton("Copy", QDialogButtonBox.ButtonRole.ActionRole)
        copy.setAccessibleName("Copy transcript")
        copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.text.toPlainText()))
        self.revert_button = buttons.addButton("Revert to original", QDialogButtonBox.ButtonRole.ResetRole)
        self.revert_button.setToolTip("Replace the edited text by the text as it was transcribed")
        self.revert_button.clicked.connect(self.revert)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow("Name", self.name)
        texts = QGridLayout()
        texts.addWidget(self.edited_label, 0, 0)
        texts.addWidget(self.original_label, 0, 1)
        texts.addWidget(self.text, 1, 0)
        texts.addWidget(self.original, 1, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(texts, 1)
        layout.addWidget(buttons)
        self._show_original(entry.edited)

    def _show_original(self, edited: bool) -> None:
        for widget in (self.original, self.original_label, self.edited_label, self.revert_button):
            widget.setVisible(edited)
        self.resize(1000 if edited else 640, self.height())

    def revert(self) -> None:
        """The text as transcribed replaces the edited one, in the History and here."""
        self.history.revert(self.entry_id)
        entry = self.history.get(self.entry_id)
        if entry is not None:
            self.text.setPlainText(entry.text)
            self.original.setPlainText(entry.original)
            self._show_original(entry.edited)
        self.saved.emit()

    def save(self) -> None:
        entry = self.history.get(self.entry_id)
        if entry is None:  # deleted meanwhile: keep the dialog, say nothing was there to save
            self.setWindowTitle("This transcript was deleted")
            return
        if self.name.text().strip() != entry.title:
            self.history.rename(self.entry_id, self.name.text())
        if self.text.toPlainText() != entry.text:
            self.history.set_text(self.entry_id, self.text.toPlainText())
        self.saved.emit()
        self.accept()

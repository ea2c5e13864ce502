"""The main window's file dialogs: files or a folder to transcribe, and the live transcript saved
as a text file."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMainWindow, QMessageBox, QWidget

from app.history.store import HistoryStore
from app.ui.save_paths import ask_save_path, save_transcript_path
from app.ui.transcript_view import TranscriptView

OPEN_FILES_FILTER = "All files (*)"
"""Qt drops a chosen file its name filter does not match, without a word (`*.*` dropped "memo",
a recording without an extension): no filter; a file that is not audio fails in its own row."""


def ask_files_to_transcribe(parent: QWidget) -> list[Path]:
    """The files chosen in an open dialog; [] when cancelled."""
    paths, _ = QFileDialog.getOpenFileNames(parent, "Transcribe files", "", OPEN_FILES_FILTER)
    return [Path(p) for p in paths]


def ask_folder_to_transcribe(parent: QWidget) -> Path | None:
    """The folder chosen in a dialog (the folders inside it are searched too); None when cancelled."""
    folder = QFileDialog.getExistingDirectory(parent, "Transcribe a folder (and the folders inside it)")
    return Path(folder) if folder else None


def save_transcript(window: QMainWindow, transcript: TranscriptView, history: HistoryStore) -> None:
    """A file dialog in the documents folder, named after the last session's History entry; the
    transcript's committed text (as it is once the dialog closes) is written there as UTF-8."""
    sessions = transcript.session_texts()
    entry = history.get(sessions[-1][0]) if sessions else None
    path = ask_save_path(window, "Save transcript", save_transcript_path(entry), "Text (*.txt)")
    if path:
        try:
            Path(path).write_text(transcript.committed_text + "\n", encoding="utf-8")
        except OSError as exc:
            QMessageBox.warning(window, "Not saved", f"Could not save {path}: {exc.strerror}")
            return
        window.statusBar().showMessage(f"Saved {Path(path).name}", 3000)

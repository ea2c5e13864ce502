"""Where save and export dialogs start: the user's documents folder, with a name from the entry.

The app's own folders (its settings, its private recovery copies) are never proposed: a user
looks for their transcripts where they keep documents.
"""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QStandardPaths
from PySide6.QtWidgets import QDialog, QFileDialog, QWidget

from app.engine.export.file_names import fitted_name, name_max
from app.history.entry import EntryKind, HistoryEntry

FALLBACK_NAME = "Transcript"


def documents_folder() -> Path:
    """The user's documents folder (as the desktop names it), else (none, or not made yet) their
    home folder."""
    found = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(found) if found and Path(found).is_dir() else Path.home()


def export_all_folder(export_dir: str) -> Path:
    """The folder "Export all" proposes: the one set in Settings, else the documents folder."""
    return Path(export_dir).expanduser() if export_dir.strip() else documents_folder()


def entry_file_name(entry: HistoryEntry | None) -> str:
    """A file name (no suffix) for `entry`: its title, else a file's stem, else "Dictation" and
    the day and time it began; characters file systems refuse become spaces."""
    if entry is None:
        return FALLBACK_NAME
    if entry.title.strip():
        base = entry.title.strip()
    elif entry.kind == EntryKind.FILE and entry.source:
        base = Path(entry.source.replace("\\", "/")).stem
    else:
        base = "Dictation " + time.strftime("%Y-%m-%d %H.%M", time.localtime(entry.created))
    cleaned = "".join(ch if ch.isalnum() or ch in " -_.," else " " for ch in base)
    return " ".join(cleaned.split()).strip(" .") or FALLBACK_NAME


def save_transcript_path(entry: HistoryEntry | None, folder: Path | None = None) -> Path:
    """What "Save transcript as" proposes: `<documents>/<entry's name>.txt`, the name shortened
    where it would pass the folder's limit (`app.engine.export.file_names`)."""
    place = folder or documents_folder()
    return place / fitted_name(entry_file_name(entry), ".txt", name_max(place))


def ask_save_path(parent: QWidget, title: str, suggested: Path, name_filter: str) -> str:
    """A save dialog opened in `suggested`'s folder with its name filled in; "" when cancelled."""
    dialog = QFileDialog(parent, title, str(suggested.parent), name_filter)
    dialog.setObjectName("saveDialog")
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    dialog.selectFile(suggested.name)
    accepted = dialog.exec() == QDialog.DialogCode.Accepted and dialog.selectedFiles()
    return dialog.selectedFiles()[0] if accepted else ""

"""Save and export dialogs start where users keep documents: "Save transcript as" opens in the
documents folder with a name from the History entry (its title, a file's stem, or "Dictation" and
its date), and "Export all" proposes the documents folder, never the app's private recovery
folder. Real window, real History, the real (non-native, offscreen) dialogs."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from gui_helpers import open_window
from modal_helpers import when_modal
from PySide6.QtCore import QStandardPaths
from PySide6.QtWidgets import QFileDialog, QLineEdit

from app.dictation.audio_journal import recovery_dir
from app.history.entry import EntryKind, HistoryEntry
from app.ui.save_paths import documents_folder, entry_file_name, export_all_folder, save_transcript_path


@pytest.fixture
def documents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home folder with a Documents folder in it (Qt finds both from $HOME)."""
    home = tmp_path / "home"
    (home / "Documents").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DOCUMENTS_DIR", raising=False)
    return home / "Documents"


def _entry(kind: EntryKind = EntryKind.DICTATION, title: str = "", source: str = "") -> HistoryEntry:
    created = time.mktime((2025, 3, 14, 9, 26, 0, 0, 0, -1))
    return HistoryEntry(1, kind, title, source, created, created, "hello there")


def test_the_documents_folder_is_the_desktops_and_not_the_apps_own(documents: Path) -> None:
    expected = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    assert documents_folder() == Path(expected) == documents
    assert not documents_folder().is_relative_to(recovery_dir().parent)
    assert export_all_folder("") == documents_folder()
    assert export_all_folder("~/Subtitles") == Path.home() / "Subtitles"  # the folder set in Settings wins


def test_a_file_name_comes_from_the_entry() -> None:
    assert entry_file_name(_entry(title="Team call: budget/plan")) == "Team call budget plan"
    assert entry_file_name(_entry(EntryKind.FILE, source="/media/talks/keynote.final.mp4")) == "keynote.final"
    assert entry_file_name(_entry()) == "Dictation 2025-03-14 09.26"
    assert entry_file_name(None) == "Transcript"
    assert save_transcript_path(_entry()) == documents_folder() / "Dictation 2025-03-14 09.26.txt"


def _answer_and_cancel(seen: dict[str, str]):  # type: ignore[no-untyped-def]
    def answer(dialog: QFileDialog) -> None:
        seen["folder"] = dialog.directory().absolutePath()
        seen["name"] = dialog.findChild(QLineEdit, "fileNameEdit").text()
        dialog.reject()
    return answer


def test_without_a_documents_folder_the_home_folder_is_proposed(documents: Path) -> None:
    documents.rmdir()
    assert documents_folder() == documents.parent


def test_save_transcript_as_opens_in_documents_named_after_the_session(qtbot, parts, documents: Path) -> None:
    window = open_window(qtbot, parts, load=False)
    history = window.controller.history
    entry_id = history.create(EntryKind.DICTATION, "Weekly notes")
    window.transcript.start_session(entry_id)
    window.transcript.append_committed("We ship on Monday.")
    history.flush(5.0)
    seen: dict[str, str] = {}

    when_modal(QFileDialog, _answer_and_cancel(seen))
    window.save_transcript_as()

    assert Path(seen["folder"]) == documents
    assert seen["name"] == "Weekly notes.txt"


def test_export_all_proposes_the_documents_folder(qtbot, parts, documents: Path) -> None:
    from app.ui.export_all import ExportAllDialog

    window = open_window(qtbot, parts, load=False)
    panel = window.jobs_panel
    seen: list[str] = []

    def answer(dialog: ExportAllDialog) -> None:
        seen.append(dialog.folder.text())
        dialog.reject()

    panel._finished_transcripts = lambda: {1: object()}  # a finished job (its transcript is not read)
    when_modal(ExportAllDialog, answer)
    panel.export_all()
    assert seen == [str(documents)]

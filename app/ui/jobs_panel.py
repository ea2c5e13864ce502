"""The file jobs panel: a header with counts that match the rows, "Export all", and one row per
file (app/ui/job_row.py); new rows scroll into view."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.controller.app_controller import AppController
from app.controller.job_records import Job
from app.controller.ports import FileTranscript
from app.controller.review import file_entry_id, from_segments
from app.controller.states import JobState
from app.engine.export.file_names import fitted_name, name_max
from app.engine.export.subtitles import SubtitleOptions
from app.ui.export_all import ExportAllPrompt, ask_export_all, distinct_targets
from app.ui.job_row import JobRow
from app.ui.review_view import ReviewView
from app.ui.save_paths import export_all_folder

SaveAsPrompt = Callable[[QWidget, str, str], str]
"""(parent, suggested path, format) -> chosen path or "" (a file dialog; tests replace it)."""

ROW_WORDS = {  # the word each row's status starts with, as the header counts it
    JobState.QUEUED: "waiting",
    JobState.DECODING: "transcribing",
    JobState.LOADING_MODEL: "transcribing",
    JobState.TRANSCRIBING: "transcribing",
    JobState.DONE: "done",
    JobState.FAILED: "failed",
    JobState.CANCELLED: "cancelled",
}
COUNT_ORDER = ("transcribing", "waiting", "done", "failed", "cancelled")

log = logging.getLogger(__name__)


def summary_text(states: list[JobState]) -> str:
    """The header: how many rows are in each state, e.g. "1 transcribing · 2 waiting · 1 done"."""
    counts = Counter(ROW_WORDS[state] for state in states)
    return " · ".join(f"{counts[word]} {word}" for word in COUNT_ORDER if counts[word])


class JobsPanel(QWidget):
    """Lists the jobs of the controller's queue; hidden while there are none."""

    became_visible = Signal()

    def __init__(self, controller: AppController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.rows: dict[int, JobRow] = {}
        self.review: ReviewView | None = None  # the result opened last
        self.save_as: SaveAsPrompt = _save_as_dialog
        self.ask_export_all: ExportAllPrompt = ask_export_all
        self.setAccessibleName("File jobs")
        self._build_header()
        self.list_widget = QWidget(self)
        self.list_layout = QVBoxLayout(self.list_widget)
        self.list_layout.setContentsMargins(0, 0, 0, 0)
        self.list_layout.setSpacing(6)
        self.list_layout.addStretch(1)
        self.scroll_area = QScrollArea(self)
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setWidget(self.list_widget)
        self._newest = -1  # the row added last, kept in view until the user scrolls
        bar = self.scroll_area.verticalScrollBar()
        bar.rangeChanged.connect(lambda *_: self._show_newest())
        bar.actionTriggered.connect(self._user_scrolled)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(18, 8, 18, 12)
        layout.addLayout(self.top)
        layout.addWidget(self.scroll_area, 1)
        controller.jobs.job_added.connect(self._on_added)
        controller.jobs.job_changed.connect(self._on_changed)
        self.setVisible(False)

    def _build_header(self) -> None:
        header = QLabel("Files", self)
        header.setObjectName("sectionTitle")
        self.summary = QLabel(self)
        self.summary.setObjectName("muted")
        self.summary.setAccessibleName("File job counts")
        self.add_button = QPushButton("Add files…", self)
        self.add_button.setAccessibleName("Add files to transcribe")
        self.export_all_button = QPushButton("Export all…", self)
        self.export_all_button.setAccessibleName("Export all finished transcripts")
        self.export_all_button.clicked.connect(self.export_all)
        self.clear_button = QPushButton("Clear finished", self)
        self.clear_button.setAccessibleName("Clear finished jobs")
        self.clear_button.clicked.connect(self.clear_finished)
        self.top = QHBoxLayout()
        self.top.addWidget(header)
        self.top.addWidget(self.summary, 1)
        for button in (self.export_all_button, self.clear_button, self.add_button):
            self.top.addWidget(button)

    def _on_added(self, job: Job) -> None:
        row = JobRow(job, self.list_widget)
        row.cancel_requested.connect(self.controller.jobs.cancel)
        row.open_requested.connect(self._open)
        row.copy_requested.connect(self._copy)
        row.export_requested.connect(self._export)
        row.remove_requested.connect(self._remove)
        self.rows[job.id] = row
        self.list_layout.insertWidget(self.list_layout.count() - 1, row)
        if not self.isVisible():
            self.setVisible(True)
            self.became_visible.emit()
        self._summarise()
        self._newest = job.id
        QTimer.singleShot(0, self._show_newest)  # and again when the scroll range has grown

    def _show_newest(self) -> None:
        """Scroll the newest row into view (the range grows only once the layout placed it)."""
        if (row := self.rows.get(self._newest)) is not None:
            self.scroll_area.ensureWidgetVisible(row, 0, 0)

    def _user_scrolled(self, _action: int) -> None:
        self._newest = -1  # the user's scrolling wins over following the newest row

    def _on_changed(self, job: Job) -> None:
        if job.id in self.rows:
            self.rows[job.id].update_job(job)
        self._summarise()

    def _summarise(self) -> None:
        self.summary.setText(summary_text([row.state for row in self.rows.values()]))
        self.export_all_button.setEnabled(bool(self._finished_transcripts()))

    def _transcript(self, job_id: int) -> FileTranscript | None:
        job = self.controller.jobs.jobs.get(job_id)
        return job.transcript if job else None

    def _finished_transcripts(self) -> dict[int, FileTranscript]:
        """The transcripts of the rows shown as done, in row order."""
        found = {job_id: self._transcript(job_id) for job_id, row in self.rows.items() if row.state == JobState.DONE}
        return {job_id: t for job_id, t in found.items() if t is not None}

    def _open(self, job_id: int) -> None:
        """The result in the review view: segments with times, a clicked word played from the
        media file, edits saved to the job's History entry."""
        if transcript := self._transcript(job_id):
            c = self.controller
            audio = transcript.path if transcript.path.is_file() else None
            document = from_segments(
                transcript.path.name, transcript.segments, audio, file_entry_id(c.history, transcript.path)
            )
            self.review = ReviewView(document, c.history, c.playback, self)
            self.review.saved.connect(c.history_changed)
            self.review.show()

    def _copy(self, job_id: int) -> None:
        if transcript := self._transcript(job_id):
            QGuiApplication.clipboard().setText(transcript.text)

    def _export(self, job_id: int, fmt: str) -> None:
        transcript = self._transcript(job_id)
        if transcript is None:
            return
        folder = Path(self.controller.settings.window.export_dir or transcript.path.parent)
        name = fitted_name(transcript.path.stem, f".{fmt}", name_max(folder))  # one that fits there
        target = self.save_as(self, str(folder / name), fmt)
        if target:
            self._write(job_id, fmt, transcript, Path(target), self.rows[job_id].subtitle_options())

    def export_all(self) -> None:
        """Every finished transcript into one chosen folder and format, one file each."""
        transcripts = self._finished_transcripts()
        if not transcripts:
            return
        folder = export_all_folder(self.controller.settings.window.export_dir)
        choice = self.ask_export_all(self, str(folder), len(transcripts))
        if choice is None:
            return
        stems = [t.path.stem for t in transcripts.values()]
        targets = distinct_targets(stems, choice.fmt, choice.folder)
        for (job_id, transcript), target in zip(transcripts.items(), targets, strict=True):
            self._write(job_id, choice.fmt, transcript, target, None)

    def _write(
        self, job_id: int, fmt: str, transcript: FileTranscript, target: Path, subtitles: SubtitleOptions | None
    ) -> None:
        try:
            written = self.controller.export(fmt, transcript, target, subtitles)
        except Exception as exc:  # ExportError and friends carry a one-line message
            log.exception("exporting %s to %s failed", fmt, target)
            self._say(job_id, str(exc), error=True)
            return
        self._say(job_id, f"Saved {written.name} in {written.parent}")

    def _say(self, job_id: int, text: str, error: bool = False) -> None:
        row = self.rows[job_id]
        row.status.setText(text)
        row.status.setProperty("error", error)
        row.status.style().polish(row.status)

    def _remove(self, job_id: int) -> None:
        self.controller.jobs.remove(job_id)
        if row := self.rows.pop(job_id, None):
            row.deleteLater()
        self.setVisible(bool(self.rows))
        self._summarise()

    def clear_finished(self) -> None:
        for job_id in [i for i, j in self.controller.jobs.jobs.items() if j.state.finished]:
            self._remove(job_id)


def _save_as_dialog(parent: QWidget, suggested: str, fmt: str) -> str:
    from PySide6.QtWidgets import QFileDialog

    path, _ = QFileDialog.getSaveFileName(parent, f"Export {fmt.upper()}", suggested, f"{fmt.upper()} files (*.{fmt})")
    return path

"""The file jobs panel: one row per file with progress, ETA, cancel and, when done, open,
copy and export (TXT / SRT / VTT / JSON)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSize, Qt, Signal, SignalInstance
from PySide6.QtGui import QAction, QGuiApplication, QPalette
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.controller.app_controller import AppController
from app.controller.jobs import Job
from app.controller.ports import EXPORT_FORMATS, FileTranscript
from app.controller.states import JobState
from app.engine.subtitles import SubtitleOptions
from app.ui.icons import icon

WORD_CUE_WIDTH = 42  # characters per subtitle line (a common broadcast limit)
WORD_CUE_LINES = 2

SaveAsPrompt = Callable[[QWidget, str, str], str]
"""(parent, suggested path, format) -> chosen path or "" (a file dialog; tests replace it)."""


log = logging.getLogger(__name__)


def format_clock(seconds: float) -> str:
    seconds = max(0, round(seconds))
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def describe(job: Job) -> str:
    """The status line under a job's name."""
    state = job.state
    if state == JobState.FAILED:
        return job.error
    if state == JobState.DONE:
        words = len(job.transcript.text.split()) if job.transcript else 0
        return f"Done · {format_clock(job.total_s or 0)} · {words} words"
    if state == JobState.TRANSCRIBING and job.total_s:
        text = f"Transcribing · {format_clock(job.done_s)} of {format_clock(job.total_s)}"
        if job.eta_s is not None:
            text += f" · about {format_clock(job.eta_s)} left"
        return text
    return {
        JobState.QUEUED: "Waiting",
        JobState.DECODING: "Reading the file…",
        JobState.LOADING_MODEL: "Loading the model…",
        JobState.TRANSCRIBING: "Transcribing…",
        JobState.CANCELLED: "Cancelled",
    }[state]


class JobRow(QFrame):
    """One file job in the jobs panel: name, status line, progress, and its buttons."""

    cancel_requested = Signal(int)
    open_requested = Signal(int)
    copy_requested = Signal(int)
    export_requested = Signal(int, str)
    remove_requested = Signal(int)

    def __init__(self, job: Job, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.job_id = job.id
        self.setObjectName("jobRow")
        self.setAccessibleName(f"File job {job.path.name}")
        self.icon = QLabel(self)
        self.name = QLabel(job.path.name, self)
        self.name.setObjectName("jobName")
        self.name.setToolTip(str(job.path))
        self.status = QLabel(self)
        self.status.setObjectName("jobStatus")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(False)
        self.progress.setFixedHeight(6)
        self.progress.setAccessibleName(f"Progress of {job.path.name}")
        self.cancel_button = self._button("cancel", "Cancel", self.cancel_requested)
        self.open_button = self._button("open", "Open transcript", self.open_requested, "Open")
        self.copy_button = self._button("copy", "Copy transcript", self.copy_requested, "Copy")
        self.export_button = self._export_button()
        self.remove_button = self._button("cancel", "Remove from list", self.remove_requested)
        self._layout()
        self.update_job(job)

    def _button(
        self, icon_name: str, name: str, signal: SignalInstance, text: str = ""
    ) -> QToolButton:
        button = QToolButton(self)
        button.setIcon(icon(icon_name, self.palette().color(QPalette.ColorRole.ButtonText)))
        button.setIconSize(QSize(16, 16))
        button.setAccessibleName(name)
        button.setToolTip(name)
        button.setAutoRaise(True)
        if text:
            button.setText(text)
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        button.clicked.connect(lambda: signal.emit(self.job_id))
        return button

    def _export_button(self) -> QPushButton:
        button = QPushButton("Export", self)
        button.setAccessibleName("Export transcript")
        button.setIcon(icon("save", self.palette().color(QPalette.ColorRole.ButtonText)))
        menu = QMenu(button)
        for fmt in EXPORT_FORMATS:
            action = QAction(f"{fmt.upper()}…", menu)
            action.triggered.connect(lambda _=False, f=fmt: self.export_requested.emit(self.job_id, f))
            menu.addAction(action)
        menu.addSeparator()
        self.word_cues = self._toggle(menu, "Subtitles word by word (SRT, VTT)",
                                      f"Cues of at most {WORD_CUE_LINES} lines of {WORD_CUE_WIDTH} characters, "
                                      "broken at words")
        self.highlight_words = self._toggle(menu, "Highlight each word as it is spoken (SRT, VTT)",
                                            "Underlines the word being spoken in every cue")
        button.setMenu(menu)
        return button

    def _toggle(self, menu: QMenu, text: str, tip: str) -> QAction:
        action = QAction(text, menu)
        action.setCheckable(True)
        action.setToolTip(tip)
        menu.addAction(action)
        return action

    def subtitle_options(self) -> SubtitleOptions | None:
        """Word-level cues as chosen in the Export menu, or None for one cue per segment."""
        if not (self.word_cues.isChecked() or self.highlight_words.isChecked()):
            return None
        return SubtitleOptions(WORD_CUE_WIDTH, WORD_CUE_LINES, self.highlight_words.isChecked())

    def _layout(self) -> None:
        text = QVBoxLayout()
        text.setSpacing(3)
        text.addWidget(self.name)
        text.addWidget(self.status)
        text.addWidget(self.progress)
        row = QHBoxLayout(self)
        row.setContentsMargins(12, 8, 8, 8)
        row.addWidget(self.icon, 0, Qt.AlignmentFlag.AlignTop)
        row.addLayout(text, 1)
        for button in (self.open_button, self.copy_button, self.export_button):
            row.addWidget(button)
        row.addWidget(self.cancel_button)
        row.addWidget(self.remove_button)

    def update_job(self, job: Job) -> None:
        state = job.state
        self.status.setText(describe(job))
        self.status.setProperty("error", state == JobState.FAILED)
        self.status.style().unpolish(self.status)
        self.status.style().polish(self.status)
        self.progress.setValue(round(job.fraction * 1000))
        self.progress.setVisible(not state.finished)
        done = state == JobState.DONE
        for button in (self.open_button, self.copy_button, self.export_button):
            button.setVisible(done)
        self.cancel_button.setVisible(not state.finished)
        self.remove_button.setVisible(state.finished)
        name = {JobState.DONE: "done", JobState.FAILED: "error"}.get(state, "file")
        color = "#e5484d" if state == JobState.FAILED else (
            "#30a46c" if done else self.palette().color(QPalette.ColorRole.PlaceholderText))
        self.icon.setPixmap(icon(name, color).pixmap(22, 22))


class JobsPanel(QWidget):
    """Lists the jobs of the controller's queue; hidden while there are none."""

    open_transcript = Signal(str, str)  # title, text
    open_timed_transcript = Signal(str, object)  # title, list[Segment] with words
    became_visible = Signal()

    def __init__(self, controller: AppController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.rows: dict[int, JobRow] = {}
        self.save_as: SaveAsPrompt = _save_as_dialog
        self.setAccessibleName("File jobs")
        header = QLabel("Files", self)
        header.setObjectName("sectionTitle")
        self.summary = QLabel(self)
        self.summary.setObjectName("muted")
        self.add_button = QPushButton("Add files…", self)
        self.add_button.setAccessibleName("Add files to transcribe")
        self.clear_button = QPushButton("Clear finished", self)
        self.clear_button.setAccessibleName("Clear finished jobs")
        self.clear_button.clicked.connect(self.clear_finished)
        top = QHBoxLayout()
        top.addWidget(header)
        top.addWidget(self.summary, 1)
        top.addWidget(self.clear_button)
        top.addWidget(self.add_button)
        self.list_widget = QWidget(self)
        self.list_layout = QVBoxLayout(self.list_widget)
        self.list_layout.setContentsMargins(0, 0, 0, 0)
        self.list_layout.setSpacing(6)
        self.list_layout.addStretch(1)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(self.list_widget)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(18, 8, 18, 12)
        layout.addLayout(top)
        layout.addWidget(scroll, 1)
        controller.jobs.job_added.connect(self._on_added)
        controller.jobs.job_changed.connect(self._on_changed)
        self.setVisible(False)

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

    def _on_changed(self, job: Job) -> None:
        if job.id in self.rows:
            self.rows[job.id].update_job(job)
        self._summarise()

    def _summarise(self) -> None:
        pending = self.controller.jobs.pending()
        self.summary.setText(f"{pending} in progress" if pending else "All done")

    def _transcript(self, job_id: int) -> FileTranscript | None:
        job = self.controller.jobs.jobs.get(job_id)
        return job.transcript if job else None

    def _open(self, job_id: int) -> None:
        if transcript := self._transcript(job_id):
            if any(s.words for s in transcript.segments):
                self.open_timed_transcript.emit(transcript.path.name, transcript.segments)
            else:
                self.open_transcript.emit(transcript.path.name, transcript.text)

    def _copy(self, job_id: int) -> None:
        if transcript := self._transcript(job_id):
            QGuiApplication.clipboard().setText(transcript.text)

    def _export(self, job_id: int, fmt: str) -> None:
        transcript = self._transcript(job_id)
        if transcript is None:
            return
        folder = self.controller.settings.window.export_dir or str(transcript.path.parent)
        target = self.save_as(self, str(Path(folder) / f"{transcript.path.stem}.{fmt}"), fmt)
        if not target:
            return
        try:
            subtitles = self.rows[job_id].subtitle_options() if fmt in ("srt", "vtt") else None
            if subtitles is not None and not any(s.words for s in transcript.segments):
                subtitles = None  # a transcript made without word times: one cue per segment
            written = self.controller.export(fmt, transcript, Path(target), subtitles)
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

    def clear_finished(self) -> None:
        for job_id in [i for i, j in self.controller.jobs.jobs.items() if j.state.finished]:
            self._remove(job_id)


def _save_as_dialog(parent: QWidget, suggested: str, fmt: str) -> str:
    from PySide6.QtWidgets import QFileDialog

    path, _ = QFileDialog.getSaveFileName(
        parent, f"Export {fmt.upper()}", suggested, f"{fmt.upper()} files (*.{fmt})"
    )
    return path

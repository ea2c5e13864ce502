"""One file job's row: name, status line, progress and, once it has text, open, copy and export
(TXT / SRT / VTT / JSON; SRT and VTT are readable word-timed cues unless "One cue per segment" is
ticked in the Export menu)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt, Signal, SignalInstance
from PySide6.QtGui import QAction, QPalette
from PySide6.QtWidgets import (
    QAbstractButton,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QProgressBar,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.controller.job_records import Job
from app.controller.ports import EXPORT_FORMATS
from app.controller.states import JobState
from app.engine.export.subtitles import CueLayout, SubtitleOptions
from app.ui.icons import icon


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
    if state == JobState.CANCELLED and job.transcript is not None:
        words = len(job.transcript.text.split())
        return (
            f"Cancelled at {format_clock(job.done_s)} of {format_clock(job.total_s or 0)} · "
            f"the {words} words transcribed so far are kept"
        )
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

    def _button(self, icon_name: str, name: str, signal: SignalInstance, text: str = "") -> QToolButton:
        button = QToolButton(self)
        button.setProperty("iconName", icon_name)
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
        button.setProperty("iconName", "save")
        button.setIcon(icon("save", self.palette().color(QPalette.ColorRole.ButtonText)))
        menu = QMenu(button)
        for fmt in EXPORT_FORMATS:
            action = QAction(f"{fmt.upper()}…", menu)
            action.triggered.connect(lambda _=False, f=fmt: self.export_requested.emit(self.job_id, f))
            menu.addAction(action)
        menu.addSeparator()
        readable = SubtitleOptions()
        self.segment_cues = self._toggle(
            menu,
            "One cue per segment (SRT, VTT)",
            f"Instead of readable cues (at most {readable.max_line_count} lines of "
            f"{readable.max_line_width} characters, {readable.max_duration_s:g} s, "
            "cut at sentence and clause ends), one cue per transcribed segment",
        )
        self.highlight_words = self._toggle(
            menu, "Highlight each word as it is spoken (SRT, VTT)", "Underlines the word being spoken in every cue"
        )
        self.segment_cues.toggled.connect(lambda on: self.highlight_words.setEnabled(not on))
        button.setMenu(menu)
        return button

    def _toggle(self, menu: QMenu, text: str, tip: str) -> QAction:
        action = QAction(text, menu)
        action.setCheckable(True)
        action.setToolTip(tip)
        menu.addAction(action)
        return action

    def subtitle_options(self) -> SubtitleOptions:
        """SRT/VTT cues as chosen in the Export menu: readable (default) or one per segment."""
        if self.segment_cues.isChecked():
            return SubtitleOptions(layout=CueLayout.SEGMENTS)
        return SubtitleOptions(highlight_words=self.highlight_words.isChecked())

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
        state = self.state = job.state  # what this row shows (the header counts these)
        self.has_text = job.transcript is not None
        self.status.setText(describe(job))
        self.status.setProperty("error", state == JobState.FAILED)
        self.status.style().unpolish(self.status)
        self.status.style().polish(self.status)
        self.progress.setValue(round(job.fraction * 1000))
        self.progress.setVisible(not state.finished)
        for button in (self.open_button, self.copy_button, self.export_button):
            button.setVisible(self.has_text)  # done, or cancelled with the text so far
        self.cancel_button.setVisible(not state.finished)
        self.remove_button.setVisible(state.finished)
        self._show_state_icon()

    def _show_state_icon(self) -> None:
        name = {JobState.DONE: "done", JobState.FAILED: "error"}.get(self.state, "file")
        color = (
            "#e5484d"
            if self.state == JobState.FAILED
            else (
                "#30a46c" if self.state == JobState.DONE else self.palette().color(QPalette.ColorRole.PlaceholderText)
            )
        )
        self.icon.setPixmap(icon(name, color).pixmap(22, 22))

    def changeEvent(self, event: QEvent) -> None:
        """A theme switch redraws the icons in the new text colour (black ones on a dark row
        could not be seen)."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and hasattr(self, "state"):
            color = self.palette().color(QPalette.ColorRole.ButtonText)
            for button in self.findChildren(QAbstractButton):
                if name := button.property("iconName"):
                    button.setIcon(icon(str(name), color))
            self._show_state_icon()

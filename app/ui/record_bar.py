"""The strip above the transcript: record button, state, level meter and input device."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette, QResizeEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from app.audio.microphones import Microphone
from app.controller.states import RecordState
from app.ui.icons import icon
from app.ui.microphone_picker import MicrophoneCombo

RECORD_RED = QColor("#e5484d")

STATE_TEXT = {
    RecordState.IDLE: ("Ready", "Press Record or Ctrl+R to dictate"),
    RecordState.LOADING_MODEL: ("Loading model…", "Dictation starts as soon as it is ready"),
    RecordState.LISTENING: ("Listening", "Speak now — press Stop when you are done"),
    RecordState.HEARING_SPEECH: ("Hearing speech", "Transcribing as you talk"),
    RecordState.FINISHING: ("Finishing…", "Committing the last words"),
    RecordState.ERROR: ("Something went wrong", ""),
}


TOO_LOUD = 0.9
"""Shown level (0..1, after the perceptual scale) from which the bar turns orange: the input is
close to clipping, and clipped speech is transcribed worse."""
TOO_LOUD_TEXT = "Too loud: move back or turn the microphone down"


class LevelMeter(QWidget):
    """A rounded bar showing the input level (0..1), with a falling peak for smoothness.
    `too_loud(bool)` is emitted when it turns orange (and back)."""

    too_loud = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Input level")
        self.setMinimumSize(120, 8)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setFixedHeight(8)
        self.setToolTip(
            "Level of the microphone while you dictate or test it. Green is good; orange "
            "means too loud (the words may be distorted)"
        )
        self._level = 0.0
        self._loud = False
        self._decay = QTimer(self, interval=40)
        self._decay.timeout.connect(self._fall)

    @property
    def level(self) -> float:
        return self._level

    def set_level(self, level: float) -> None:
        # Perceptual scale: speech peaks around 0.1-0.5 should fill most of the bar.
        shown = min(1.0, max(0.0, level) ** 0.5)
        if shown >= self._level or level == 0.0:
            self._level = shown
        self._decay.start()
        self._changed()

    def _fall(self) -> None:
        self._level = max(0.0, self._level - 0.04)
        if self._level == 0.0:
            self._decay.stop()
        self._changed()

    def _changed(self) -> None:
        loud = self._level >= TOO_LOUD
        self.setAccessibleDescription(f"{round(self._level * 100)} percent" + (", too loud" if loud else ""))
        if loud != self._loud:
            self._loud = loud
            self.too_loud.emit(loud)
        self.update()

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        rect = QRectF(self.rect())
        radius = rect.height() / 2
        track = self.palette().color(QPalette.ColorRole.Mid)
        track.setAlpha(90)
        painter.setBrush(track)
        painter.drawRoundedRect(rect, radius, radius)
        if self._level > 0.0:
            fill = QRectF(rect.left(), rect.top(), max(rect.height(), rect.width() * self._level), rect.height())
            painter.setBrush(QColor("#30a46c") if self._level < TOO_LOUD else QColor("#f5a524"))
            painter.drawRoundedRect(fill, radius, radius)


class RecordBar(QWidget):
    """The record button, the state and its detail line, and the input picker with the level meter
    under it (the level of the dictation's audio, or of the microphone while "Test microphone" is
    on: the microphone is open only then) and a quiet line when the tested one does not open."""

    record_clicked = Signal()
    device_chosen = Signal(object)  # str | None (None = system default)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.button = QPushButton("Record", self)
        self.button.setObjectName("recordButton")
        self.button.setAccessibleName("Record")
        self.button.setIconSize(QSize(20, 20))
        self.button.setMinimumSize(132, 44)
        self.button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.button.clicked.connect(self.record_clicked)
        self.title = QLabel(self)
        self.title.setObjectName("stateTitle")
        self.detail = QLabel(self)
        self.detail.setObjectName("stateDetail")
        self.detail.setWordWrap(True)
        self.meter = LevelMeter(self)
        self.loud_warning = QLabel(TOO_LOUD_TEXT, self)
        self.loud_warning.setObjectName("loudWarning")
        self.loud_warning.setAccessibleName("Level warning")
        self.loud_warning.setWordWrap(True)
        self.loud_warning.hide()
        self.meter.too_loud.connect(self.loud_warning.setVisible)
        self.loading = QProgressBar(self)
        self.loading.setAccessibleName("Loading model")
        self.loading.setRange(0, 0)  # busy: the load reports no steps
        self.loading.setFixedHeight(6)
        self.loading.setTextVisible(False)
        self.loading.hide()
        self.model_loading = False
        self.devices = MicrophoneCombo(self)
        self.devices.activated.connect(self._on_device)
        self.test_button = QPushButton("Test microphone", self)
        self.test_button.setObjectName("testMicrophone")
        self.test_button.setAccessibleName("Test microphone")
        self.test_button.setCheckable(True)
        self.test_button.setToolTip(
            "Show the chosen microphone's level now, before dictating (nothing is recorded; press again to stop)"
        )
        self.microphone_problem = QLabel(self)
        self.microphone_problem.setObjectName("microphoneProblem")
        self.microphone_problem.setAccessibleName("Microphone test")
        self.microphone_problem.hide()
        self._layout()
        self.state = RecordState.IDLE
        self.set_state(RecordState.IDLE, "")

    def _layout(self) -> None:
        text = QVBoxLayout()
        text.setSpacing(2)
        text.addWidget(self.title)
        text.addWidget(self.detail)
        text.addSpacing(4)
        text.addWidget(self.loading)
        text.addWidget(self.loud_warning)
        microphone = QVBoxLayout()
        microphone.setSpacing(6)
        microphone.addStretch(1)
        microphone.addWidget(self.devices)
        level = QHBoxLayout()
        level.setSpacing(8)
        level.addWidget(self.meter, 1, Qt.AlignmentFlag.AlignVCenter)
        level.addWidget(self.test_button)
        microphone.addLayout(level)
        microphone.addWidget(self.microphone_problem)
        microphone.addStretch(1)
        row = QHBoxLayout(self)
        row.setContentsMargins(18, 14, 18, 14)
        row.setSpacing(16)
        row.addWidget(self.button)
        row.addLayout(text, 1)
        row.addLayout(microphone)

    def set_state(self, state: RecordState, reason: str) -> None:
        self.state = state
        title, detail = STATE_TEXT[state]
        self.title.setText(title)
        self.detail.setText(reason or detail)
        stop = state.is_active or state == RecordState.FINISHING
        self.button.setText("Stop" if stop else "Record")
        self.button.setAccessibleName("Stop recording" if stop else "Record")
        self.button.setToolTip("Stop and commit the last words (Ctrl+R)" if stop else "Start dictation (Ctrl+R)")
        self.button.setEnabled(state != RecordState.FINISHING and not self.model_loading)
        self.button.setProperty("recording", stop)
        self.button.setIcon(icon("stop" if stop else "mic", "#ffffff"))
        self.button.style().unpolish(self.button)
        self.button.style().polish(self.button)
        self.title.setProperty("error", state == RecordState.ERROR)
        self.title.style().unpolish(self.title)
        self.title.style().polish(self.title)
        self.devices.setEnabled(not (state.is_active or state == RecordState.FINISHING))
        self.test_button.setEnabled(state in (RecordState.IDLE, RecordState.ERROR))

    def set_model_loading(self, loading: bool) -> None:
        """While the model loads, Record is off and a busy bar runs under "Loading model…"."""
        self.model_loading = loading
        self.loading.setVisible(loading)
        self.button.setEnabled(not loading and self.state != RecordState.FINISHING)
        if loading:
            self.button.setToolTip("Record is ready once the model is loaded")
        elif not (self.state.is_active or self.state == RecordState.FINISHING):
            self.button.setToolTip("Start dictation (Ctrl+R)")

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.devices.updateGeometry()  # its width follows the window's (MicrophoneCombo.sizeHint)

    def set_devices(self, devices: list[Microphone], current: str | None) -> None:
        """List `devices`, `current` (the stored choice, None = system default) selected."""
        self.devices.set_devices(devices, current)

    def show_microphone_problem(self, problem: str) -> None:
        """One quiet line under the meter (cut to the menu's width, whole in its tooltip); "" hides it."""
        width = max(self.devices.width(), self.devices.sizeHint().width())
        self.microphone_problem.setText(
            self.microphone_problem.fontMetrics().elidedText(problem, Qt.TextElideMode.ElideRight, width)
        )
        self.microphone_problem.setToolTip(problem)
        self.microphone_problem.setAccessibleDescription(problem)
        self.microphone_problem.setVisible(bool(problem))

    def _on_device(self, index: int) -> None:
        self.device_chosen.emit(self.devices.itemData(index))

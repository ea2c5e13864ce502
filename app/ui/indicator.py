"""A small always-on-top pill that shows dictation is on, without ever taking the focus.

It sits at the bottom centre of the screen with the mouse pointer while dictation is loading,
listening, hearing speech or finishing, and hides when idle. The window never accepts the
focus (typing must keep going to the app the user is dictating into); a click on it toggles
dictation.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QCursor, QGuiApplication, QMouseEvent, QPainter, QPainterPath, QPaintEvent
from PySide6.QtWidgets import QWidget

from app.controller.states import RecordState

TITLE = "Earshot indicator"
ERROR_SHOWN_MS = 4000
_LOOK = {  # state -> (text, dot colour)
    RecordState.LOADING_MODEL: ("Loading model…", "#9e9e9e"),
    RecordState.LISTENING: ("Listening", "#e53935"),
    RecordState.HEARING_SPEECH: ("Hearing speech", "#ff5252"),
    RecordState.FINISHING: ("Finishing…", "#ffb300"),
    RecordState.ERROR: ("", "#ffb300"),
}


class DictationIndicator(QWidget):
    """The small floating window that shows dictation's state and level over other apps."""

    clicked = Signal()

    def __init__(self, hint: str = "", error_shown_ms: int = ERROR_SHOWN_MS) -> None:
        flags = (Qt.WindowType.Tool | Qt.WindowType.FramelessWindowHint | Qt.WindowType.WindowStaysOnTopHint
                 | Qt.WindowType.WindowDoesNotAcceptFocus)
        super().__init__(None, flags)
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setWindowTitle(TITLE)
        self.setAccessibleName("Dictation status")
        self.hint = hint
        self.state = RecordState.IDLE
        self.text = ""
        self.level = 0.0
        self._hide_timer = QTimer(self, singleShot=True, interval=error_shown_ms)
        self._hide_timer.timeout.connect(self.hide)

    def set_state(self, state: RecordState, reason: str = "") -> None:
        self.state = state
        self._hide_timer.stop()
        if state not in _LOOK:
            self.level = 0.0
            self.hide()
            return
        label = _LOOK[state][0] if state is not RecordState.ERROR else reason or "Dictation stopped"
        self.text = f"{label}   {self.hint}" if self.hint and state.is_active else label
        self.setAccessibleDescription(self.text)
        self._place()
        self.update()
        if not self.isVisible():
            self.show()
        if state is RecordState.ERROR:
            self._hide_timer.start()

    def set_level(self, level: float) -> None:
        self.level = max(0.0, min(1.0, level))
        if self.isVisible():
            self.update()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit()

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(self.rect())
        shape = QPainterPath()
        shape.addRoundedRect(rect, rect.height() / 2, rect.height() / 2)
        painter.fillPath(shape, QColor(32, 33, 36, 235))
        colour = QColor(_LOOK.get(self.state, ("", "#9e9e9e"))[1])
        radius = 5.0 + 3.0 * self.level
        centre = QPoint(int(rect.height() / 2), int(rect.height() / 2))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colour)
        painter.drawEllipse(centre, radius, radius)
        painter.setPen(QColor("#f1f3f4"))
        text_rect = rect.adjusted(rect.height(), 0, -rect.height() / 2, 0)
        painter.drawText(text_rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, self.text)

    def _place(self) -> None:
        metrics = self.fontMetrics()
        height = metrics.height() + 16
        self.resize(metrics.horizontalAdvance(self.text) + int(height * 1.5), height)
        mask = QPainterPath()
        mask.addRoundedRect(QRectF(self.rect()), height / 2, height / 2)
        self.setMask(mask.toFillPolygon().toPolygon())
        screen = QGuiApplication.screenAt(QCursor.pos()) or QGuiApplication.primaryScreen()
        if screen is not None:
            area = screen.availableGeometry()
            self.move(area.center().x() - self.width() // 2, area.bottom() - self.height() - 48)

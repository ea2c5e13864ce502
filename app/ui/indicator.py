"""A small always-on-top pill that shows dictation is on, without ever taking the focus.

It sits at the bottom centre of the screen with the mouse pointer while dictation is loading,
listening, hearing speech or finishing, and hides when idle. The window never accepts the
focus (typing must keep going to the app the user is dictating into); a click on it toggles
dictation.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QCursor, QGuiApplication, QMouseEvent, QPainter, QPainterPath, QPaintEvent
from PySide6.QtWidgets import QStatusBar, QWidget

from app.controller.states import RecordState
from app.ui.pill_place import pill_position, pill_width_limit

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
        flags = (
            Qt.WindowType.Tool
            | Qt.WindowType.FramelessWindowHint
            | Qt.WindowType.WindowStaysOnTopHint
            | Qt.WindowType.WindowDoesNotAcceptFocus
        )
        super().__init__(None, flags)
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setWindowTitle(TITLE)
        self.setAccessibleName("Dictation status")
        self.hint = hint
        self.state = RecordState.IDLE
        self.text = ""
        self.level = 0.0
        self.avoid: QWidget | None = None  # Earshot's window: the pill keeps off its status bar
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
        line = min(rect.height(), float(self.fontMetrics().height() + 16))  # one line's height
        shape = QPainterPath()
        shape.addRoundedRect(rect, line / 2, line / 2)
        painter.fillPath(shape, QColor(32, 33, 36, 235))
        colour = QColor(_LOOK.get(self.state, ("", "#9e9e9e"))[1])
        radius = 5.0 + 3.0 * self.level
        centre = QPoint(int(line / 2), int(line / 2))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colour)
        painter.drawEllipse(centre, radius, radius)
        painter.setPen(QColor("#f1f3f4"))
        painter.drawText(
            self.text_rect(),
            Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap,
            self.text,
        )

    def text_rect(self) -> QRectF:
        """Where the text is drawn: after the dot, up to the right end's curve."""
        rect = QRectF(self.rect())
        end = min(rect.height(), float(self.fontMetrics().height() + 16))
        return rect.adjusted(end, 0, -end / 2, 0)

    def _place(self) -> None:
        """One line as wide as its text, or wrapped lines no wider than `pill_width_limit`."""
        metrics = self.fontMetrics()
        line = metrics.height() + 16
        screen = QGuiApplication.screenAt(QCursor.pos()) or QGuiApplication.primaryScreen()
        area = screen.availableGeometry() if screen is not None else QRect(0, 0, 1280, 800)
        window, status = self._window_rects()
        room = pill_width_limit(area, window) - int(line * 1.5)
        wrapped = metrics.boundingRect(QRect(0, 0, room, 10_000), Qt.TextFlag.TextWordWrap, self.text)
        width = min(wrapped.width(), room) + int(line * 1.5)
        self.resize(width, wrapped.height() + 16)
        radius = min(self.height(), line) / 2
        mask = QPainterPath()
        mask.addRoundedRect(QRectF(self.rect()), radius, radius)
        self.setMask(mask.toFillPolygon().toPolygon())
        self.move(pill_position(self.size(), area, window, status))

    def _window_rects(self) -> tuple[QRect | None, QRect | None]:
        """Earshot's window frame and its status bar, on the screen; None when it is not shown."""
        window = self.avoid
        if window is None or not window.isVisible() or window.isMinimized():
            return None, None
        bar = window.findChild(QStatusBar)
        status = QRect(bar.mapToGlobal(QPoint(0, 0)), bar.size()) if bar is not None and bar.isVisible() else None
        return window.frameGeometry(), status

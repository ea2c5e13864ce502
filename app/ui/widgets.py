"""Small shared widgets: a dismissible notice bar and a read-only transcript viewer."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.engine.types import Segment, Word


class NoticeBar(QFrame):
    """A one-line message above the transcript (e.g. "settings were reset"), with Dismiss."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("noticeBar")
        self.setAccessibleName("Notice")
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.dismiss = QPushButton("Dismiss", self)
        self.dismiss.setAccessibleName("Dismiss notice")
        self.dismiss.clicked.connect(self.hide)
        row = QHBoxLayout(self)
        row.setContentsMargins(18, 8, 12, 8)
        row.addWidget(self.label, 1)
        row.addWidget(self.dismiss)
        self.hide()

    def show_message(self, text: str) -> None:
        self.label.setText(text)
        self.show()


def word_spans(segments: Sequence[Segment], text: str) -> list[tuple[int, int, Word]]:
    """(first, end) character offsets in `text` (the segments' texts joined and stripped, as the
    viewer shows it) of every timed word, in order."""
    joined = "".join(s.text for s in segments)
    position = -(len(joined) - len(joined.lstrip()))
    spans = []
    for segment in segments:
        for word in segment.words or []:
            lead = len(word.word) - len(word.word.lstrip())
            spans.append((position + lead, position + len(word.word), word))
            position += len(word.word)
        position += len(segment.text) - len("".join(w.word for w in segment.words or []))
    return [(a, b, w) for a, b, w in spans if 0 <= a < b <= len(text)]


def word_at(spans: Sequence[tuple[int, int, Word]], offset: int) -> Word | None:
    """The word whose characters include `offset` (or end at it: a click just after a word)."""
    return next((w for a, b, w in spans if a <= offset <= b), None)


class TextViewer(QDialog):
    """Shows one transcript read-only, with Copy. With `segments` that carry word times, clicking
    a word shows its start and end under the text."""

    def __init__(self, title: str, text: str, parent: QWidget | None = None,
                 segments: Sequence[Segment] | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setAccessibleName(f"Transcript {title}")
        self.resize(640, 480)
        self.text = QPlainTextEdit(text, self)
        self.text.setReadOnly(True)
        self.text.setAccessibleName("Transcript text")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        copy = buttons.addButton("Copy", QDialogButtonBox.ButtonRole.ActionRole)
        copy.setAccessibleName("Copy transcript")
        copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(text))
        buttons.rejected.connect(self.reject)
        self.word_time = QLabel("Click a word to see when it is spoken.", self)
        self.word_time.setAccessibleName("Word time")
        self.word_time.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._spans = word_spans(segments, text) if segments else []
        self.word_time.setVisible(bool(self._spans))
        self.text.cursorPositionChanged.connect(self._show_word_time)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(self.word_time)
        layout.addWidget(buttons)

    def _show_word_time(self) -> None:
        if not self._spans:
            return
        word = word_at(self._spans, self.text.textCursor().position())
        if word is not None:
            self.word_time.setText(f"“{word.word.strip()}”  {_clock(word.start)} – {_clock(word.end)}"
                                   f"  ·  {round(100 * word.probability)} % sure")


def _clock(seconds: float) -> str:
    minutes, rest = divmod(seconds, 60)
    return f"{int(minutes)}:{rest:06.3f}"

"""The review view's text: one paragraph per segment, its start time in a gutter on the left.

Each segment stays one paragraph, so its times stay with its text however it is edited: Enter,
joining two paragraphs (Backspace at a paragraph's start, Delete at its end), and typing over,
cutting or dropping a selection that spans paragraphs are refused; pasted line breaks become
spaces. A click on a word (no selection) emits `word_clicked(segment index, start seconds)`.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QMimeData, QRect, QSize, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QMouseEvent, QPainter, QPaintEvent, QPalette, QResizeEvent
from PySide6.QtWidgets import QApplication, QPlainTextEdit, QWidget

from app.controller.review import ReviewSegment, clock

GUTTER_PADDING = 10
UNTIMED = "–:––"
"""The gutter's label of text without times."""


class TimeGutter(QWidget):
    """Paints each paragraph's start time beside it (the editor does the drawing)."""

    def __init__(self, editor: SegmentEditor) -> None:
        super().__init__(editor)
        self.editor = editor
        self.setAccessibleName("Segment start times")

    def sizeHint(self) -> QSize:
        return QSize(self.editor.gutter_width(), 0)

    def paintEvent(self, event: QPaintEvent) -> None:
        self.editor.paint_gutter(self, event)


class SegmentEditor(QPlainTextEdit):
    word_clicked = Signal(int, float)  # segment index, where playback starts (seconds)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Transcript text")
        self.setAccessibleDescription("One paragraph per segment; click a word to play it")
        self.segments: list[ReviewSegment] = []
        self.gutter = TimeGutter(self)
        self.viewport().setAcceptDrops(False)  # a drop could move text between segments
        self.updateRequest.connect(self._scroll_gutter)
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)

    def set_segments(self, segments: Sequence[ReviewSegment]) -> None:
        self.segments = list(segments)
        self.setPlainText("\n".join(s.text for s in segments))
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)
        self.gutter.update()

    def segment_texts(self) -> list[str]:
        """Each paragraph's text as it reads now (one per segment unless replaced as a whole)."""
        block, texts = self.document().firstBlock(), []
        while block.isValid():
            texts.append(block.text())
            block = block.next()
        return texts

    def aligned(self) -> bool:
        """True while there is one paragraph per segment."""
        return self.document().blockCount() == len(self.segments)

    def position_of(self, segment: int, offset: int) -> int:
        """The document position of character `offset` of segment `segment`."""
        return self.document().findBlockByNumber(segment).position() + offset

    # --- the gutter ------------------------------------------------------------------

    def gutter_width(self) -> int:
        longest = max((clock(s.start) for s in self.segments), key=len, default="0:00.0")
        return self.fontMetrics().horizontalAdvance(max(longest, UNTIMED, key=len)) + 2 * GUTTER_PADDING

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        rect = self.contentsRect()
        self.gutter.setGeometry(QRect(rect.left(), rect.top(), self.gutter_width(), rect.height()))

    def _scroll_gutter(self, rect: QRect, dy: int) -> None:
        if dy:
            self.gutter.scroll(0, dy)
        else:
            self.gutter.update(0, rect.y(), self.gutter.width(), rect.height())

    def gutter_labels(self) -> list[str]:
        """The time shown beside each paragraph."""
        return [self._label(i) for i in range(self.document().blockCount())]

    def _label(self, number: int) -> str:
        if not self.aligned() or not self.segments[number].timed:
            return UNTIMED
        return clock(self.segments[number].start)

    def paint_gutter(self, gutter: QWidget, event: QPaintEvent) -> None:
        painter = QPainter(gutter)
        painter.fillRect(event.rect(), self.palette().color(QPalette.ColorRole.AlternateBase))
        painter.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
        block = self.firstVisibleBlock()
        top = round(self.blockBoundingGeometry(block).translated(self.contentOffset()).top())
        while block.isValid() and top <= event.rect().bottom():
            if block.isVisible():
                painter.drawText(
                    0,
                    top,
                    gutter.width() - GUTTER_PADDING,
                    self.fontMetrics().height(),
                    Qt.AlignmentFlag.AlignRight,
                    self._label(block.blockNumber()),
                )
            top += round(self.blockBoundingRect(block).height())
            block = block.next()
        painter.end()

    # --- clicks and edits ------------------------------------------------------------

    def mouseReleaseEvent(self, e: QMouseEvent) -> None:
        super().mouseReleaseEvent(e)
        if e.button() != Qt.MouseButton.LeftButton or self.textCursor().hasSelection() or not self.aligned():
            return
        cursor = self.cursorForPosition(e.position().toPoint())
        number = cursor.blockNumber()
        segment = self.segments[number]
        if segment.timed:
            self.word_clicked.emit(number, segment.time_at(cursor.block().text(), cursor.positionInBlock()))

    def keyPressEvent(self, e: QKeyEvent) -> None:
        if not self.isReadOnly() and self._would_join_segments(e):
            QApplication.beep()
            return
        super().keyPressEvent(e)

    def _would_join_segments(self, e: QKeyEvent) -> bool:
        cursor = self.textCursor()
        spans = self.document().findBlock(cursor.selectionStart()) != self.document().findBlock(cursor.selectionEnd())
        if e.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            return True
        if spans:
            return (
                bool(e.text())
                or e.key() in (Qt.Key.Key_Backspace, Qt.Key.Key_Delete)
                or e.matches(QKeySequence.StandardKey.Cut)
                or e.matches(QKeySequence.StandardKey.Paste)
            )
        if cursor.hasSelection():
            return False
        return (e.key() == Qt.Key.Key_Backspace and cursor.atBlockStart()) or (
            e.key() == Qt.Key.Key_Delete and cursor.atBlockEnd()
        )

    def insertFromMimeData(self, source: QMimeData) -> None:
        cursor = self.textCursor()
        if self.document().findBlock(cursor.selectionStart()) != self.document().findBlock(cursor.selectionEnd()):
            QApplication.beep()
            return
        cursor.insertText(" ".join(source.text().split()))

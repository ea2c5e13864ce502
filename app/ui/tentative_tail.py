"""A text edit whose document ends in a tentative tail that the user's own typing stays out of.

The live transcript (transcript_view.py) shows tentative text after everything committed; the
user may edit the committed text, also while dictating. `TentativeTailEdit` keeps the text cursor
and selection out of that tail whenever the user types, deletes, pastes or composes text with an
input method, so what they write always lands before it (and a Delete at the tail's start eats
no tentative text), in the committed text's format rather than the tail's grey italics.
"""

from __future__ import annotations

from PySide6.QtCore import QMimeData, Qt
from PySide6.QtGui import QInputMethodEvent, QKeyEvent, QTextCursor
from PySide6.QtWidgets import QTextEdit

from app.ui.transcript_text import committed_format


class TentativeTailEdit(QTextEdit):
    """`_tail` UTF-16 units at the end of the document are tentative (the subclass sets it)."""

    _tail = 0

    def _tail_start(self) -> int:
        return max(0, self.document().characterCount() - 1 - self._tail)

    def _keep_cursor_before_tail(self) -> bool:
        """Move the user's cursor (and selection) out of the tentative tail; True when it sits
        right at the tail's start (a Delete there would eat tentative text)."""
        cursor, start = self.textCursor(), self._tail_start()
        if self._tail and max(cursor.position(), cursor.anchor()) > start:
            anchor, position = min(cursor.anchor(), start), min(cursor.position(), start)
            cursor.setPosition(anchor)
            cursor.setPosition(position, QTextCursor.MoveMode.KeepAnchor)
            self.setTextCursor(cursor)
        return bool(self._tail) and not cursor.hasSelection() and cursor.position() == start

    def keyPressEvent(self, e: QKeyEvent) -> None:
        if not self.isReadOnly() and (e.text() or e.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace)):
            at_tail = self._keep_cursor_before_tail()
            if at_tail and e.key() == Qt.Key.Key_Delete:
                return
            self.setCurrentCharFormat(committed_format(self.palette()))  # typed text is not grey
        super().keyPressEvent(e)

    def inputMethodEvent(self, e: QInputMethodEvent) -> None:
        if not self.isReadOnly():
            self._keep_cursor_before_tail()
        super().inputMethodEvent(e)

    def insertFromMimeData(self, source: QMimeData) -> None:
        self._keep_cursor_before_tail()
        self.setCurrentCharFormat(committed_format(self.palette()))
        super().insertFromMimeData(source)

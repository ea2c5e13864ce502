"""The live transcript: committed text in the normal colour, tentative text after it in
grey italics. It follows new text unless the user has scrolled up to read."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFont, QPalette, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QFrame, QTextEdit, QWidget

PLACEHOLDER = (
    "Press Record (Ctrl+R) and start speaking — your words appear here.\n\n"
    "Drop audio or video files anywhere on this window to transcribe them."
)


class TranscriptView(QTextEdit):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setAccessibleName("Transcript")
        self.setAccessibleDescription("Committed dictation text, then tentative text in italics")
        self.setPlaceholderText(PLACEHOLDER)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.document().setDocumentMargin(22)
        font = QFont(self.font())
        font.setPointSizeF(max(12.0, font.pointSizeF() * 1.3))
        self.setFont(font)
        self._committed = ""
        self._tentative = ""

    @property
    def committed_text(self) -> str:
        return self._committed

    @property
    def tentative_text(self) -> str:
        return self._tentative

    def append_committed(self, delta: str) -> None:
        """Add text that will never change (the tentative tail stays after it)."""
        if not self._committed:
            delta = delta.lstrip()
        if delta:
            self._committed += delta
            self._render(commit=delta)

    def set_tentative(self, text: str) -> None:
        if not self._committed:
            text = text.lstrip()
        elif text and not text[0].isspace() and not self._committed[-1].isspace():
            text = " " + text
        if text != self._tentative:
            self._tentative = text
            self._render(commit="")

    def clear_all(self) -> None:
        self._committed = self._tentative = ""
        self.clear()

    def _render(self, commit: str) -> None:
        bar = self.verticalScrollBar()
        following = bar.value() >= bar.maximum() - 4
        cursor = QTextCursor(self.document())
        cursor.setPosition(_qt_len(self._committed) - _qt_len(commit))
        cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()
        if commit:
            cursor.insertText(commit, self._committed_format())
        if self._tentative:
            cursor.insertText(self._tentative, self._tentative_format())
        if following:
            bar.setValue(bar.maximum())

    def _committed_format(self) -> QTextCharFormat:
        fmt = QTextCharFormat()
        fmt.setForeground(self.palette().color(QPalette.ColorRole.Text))
        return fmt

    def _tentative_format(self) -> QTextCharFormat:
        fmt = QTextCharFormat()
        fmt.setFontItalic(True)
        fmt.setForeground(self.palette().color(QPalette.ColorRole.PlaceholderText))
        return fmt

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            text, tentative = self._committed, self._tentative
            self.clear_all()
            self.append_committed(text)
            self.set_tentative(tentative)


def _qt_len(text: str) -> int:
    """Length in UTF-16 code units, as QTextDocument counts positions."""
    return len(text.encode("utf-16-le")) // 2

"""The pieces of the live transcript's document that are not the widget: how committed and
tentative text look (the palette's text colour; grey italics) and where each dictation
session's text starts (anchors that keep their place as text is inserted at them)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from PySide6.QtGui import QPalette, QTextCharFormat, QTextCursor, QTextDocument


def committed_format(palette: QPalette) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setFontItalic(False)
    fmt.setForeground(palette.color(QPalette.ColorRole.Text))
    return fmt


def tentative_format(palette: QPalette) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setFontItalic(True)
    fmt.setForeground(palette.color(QPalette.ColorRole.PlaceholderText))
    return fmt


def recolour(document: QTextDocument, tail_start: int, palette: QPalette) -> None:
    """Give the text before `tail_start` the committed format and the rest the tentative one."""
    cursor = QTextCursor(document)
    cursor.setPosition(tail_start, QTextCursor.MoveMode.KeepAnchor)
    cursor.mergeCharFormat(committed_format(palette))
    cursor.setPosition(tail_start)
    cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
    cursor.mergeCharFormat(tentative_format(palette))


class SessionAnchors:
    """(history entry id, where its text starts) for each dictation session in a document."""

    def __init__(self, document: QTextDocument) -> None:
        self._document = document
        self._anchors: list[tuple[int, QTextCursor]] = []

    def add(self, entry_id: int, position: int) -> None:
        anchor = QTextCursor(self._document)
        anchor.setPosition(position)
        anchor.setKeepPositionOnInsert(True)  # stays before the session's text
        self._anchors.append((entry_id, anchor))

    def reset(self, sessions: Iterable[tuple[int, int]] = ()) -> None:
        """Forget every anchor, then anchor `sessions` (entry id, position)."""
        self._anchors = []
        for entry_id, start in sessions:
            self.add(entry_id, start)

    def positions(self, shift: int = 0) -> list[tuple[int, int]]:
        """(entry id, position + `shift`) for each session."""
        return [(i, a.position() + shift) for i, a in self._anchors]

    def spans(self, end: int) -> Iterator[tuple[int, int, int, bool]]:
        """(entry id, start, end, last) of each session's text; the last one ends at `end`."""
        for number, (entry_id, anchor) in enumerate(self._anchors):
            last = number + 1 == len(self._anchors)
            stop = end if last else self._anchors[number + 1][1].position()
            yield entry_id, min(anchor.position(), stop), stop, last

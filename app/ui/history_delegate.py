"""How the history list draws an entry: its name and time on one line (a long name elided in
the middle, the time always whole; in a narrow list the time goes under the whole name), a
three-line preview, the search query highlighted."""

from __future__ import annotations

import time

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from app.history.store import HistoryEntry

AnyIndex = QModelIndex | QPersistentModelIndex


def when(timestamp: float, now: float | None = None) -> str:
    """'Today 14:02', 'Yesterday 09:15' or '28 Nov 2026 17:40'."""
    now = time.time() if now is None else now
    day, today = time.localtime(timestamp), time.localtime(now)
    clock = time.strftime("%H:%M", day)
    if day.tm_year == today.tm_year and day.tm_yday == today.tm_yday:
        return f"Today {clock}"
    if 0 < (now - timestamp) < 2 * 86400 and (today.tm_yday - day.tm_yday) % 365 == 1:
        return f"Yesterday {clock}"
    return time.strftime("%d %b %Y %H:%M", day)


NAME_ROLE = Qt.ItemDataRole.UserRole + 1  # the entry's name
WHEN_ROLE = Qt.ItemDataRole.UserRole + 2  # "Today 14:02"
PREVIEW_ROLE = Qt.ItemDataRole.UserRole + 3  # the start of its text, on one line
FILE_ROLE = Qt.ItemDataRole.UserRole + 4  # True when its name is a file's
PREVIEW_CHARS = 400


def entry_label(entry: HistoryEntry) -> str:
    """Two lines: its name and when, then the start of its text (also the accessible text)."""
    return f"{entry.name} · {entry_stamp(entry)}\n{entry_preview(entry) or '(no text)'}"


def entry_stamp(entry: HistoryEntry) -> str:
    """When, and what sets it apart: "Today 14:02 · stopped at 0:31 · edited"."""
    notes = [when(entry.created)]
    if entry.stopped_at_s > 0:
        minutes, seconds = divmod(int(entry.stopped_at_s), 60)
        notes.append(f"stopped at {minutes}:{seconds:02d}")
    if entry.edited:
        notes.append("edited")
    return " · ".join(notes)


MATCH_LEAD_CHARS = 30
"""Text kept before a search match that is deep in a transcript: enough words to read it in."""


def entry_preview(entry: HistoryEntry, query: str = "") -> str:
    """The start of the text on one line; for a search whose first match in the text lies past
    what the preview shows, "… " and the text from a little before that match."""
    start = 0
    needle = query.strip().lower()
    found = entry.text.lower().find(needle) if needle else -1
    if found > MATCH_LEAD_CHARS:
        start = entry.text.rfind(" ", 0, found - MATCH_LEAD_CHARS) + 1  # at a word's start
    text = " ".join(entry.text[start : start + PREVIEW_CHARS * 2].split())[:PREVIEW_CHARS]
    return f"… {text}" if start else text


def title_line(name: str, stamp: str, metrics: QFontMetrics, width: int, file: bool = True) -> tuple[str, str]:
    """(name, stamp) to draw on one line of `width` px: the stamp whole, right-aligned; the name
    elided if it must be: a file's in the middle (it keeps its start and its extension), words
    at the end."""
    room = width - (metrics.horizontalAdvance(f"{stamp}  ") if stamp else 0)
    mode = Qt.TextElideMode.ElideMiddle if file else Qt.TextElideMode.ElideRight
    return metrics.elidedText(name, mode, max(room, 0)), stamp


def title_layout(name: str, stamp: str, metrics: QFontMetrics, width: int, file: bool) -> tuple[str, bool]:
    """(the name as drawn, whether the time goes under it): beside it when both fit, else under
    it, so that the name is cut only when it is wider than the whole line."""
    beside, _ = title_line(name, stamp, metrics, width, file)
    if beside == name:
        return name, False
    return title_line(name, "", metrics, width, file)[0], True


def preview_lines(text: str, metrics: QFontMetrics, width: int, lines: int) -> list[str]:
    """At most `lines` lines of `text` wrapped at words; the last ends with " …" when words are left."""
    out: list[str] = []
    words = text.split()
    while words and len(out) < lines:
        line = words.pop(0)
        while words and metrics.horizontalAdvance(f"{line} {words[0]}") <= width:
            line += " " + words.pop(0)
        out.append(metrics.elidedText(line, Qt.TextElideMode.ElideRight, width))  # one over-long word
    if words and out:
        last = out[-1].split()
        while len(last) > 1 and metrics.horizontalAdvance(" ".join(last) + " …") > width:
            last.pop()
        out[-1] = " ".join(last) + " …"
    return out


def match_spans(line: str, query: str) -> list[tuple[int, int]]:
    """(start, end) character spans of `query` in `line`, case-insensitively."""
    needle, hay, spans, at = query.strip().lower(), line.lower(), [], 0
    while needle and (found := hay.find(needle, at)) >= 0:
        spans.append((found, found + len(needle)))
        at = found + len(needle)
    return spans


class EntryDelegate(QStyledItemDelegate):
    """Paints an entry as its name (bold) and time over a muted preview; the search query is
    highlighted where it matches."""

    PREVIEW_LINES = 3

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.query = ""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        rect = opt.rect.adjusted(10, 7, -10, -7)
        painter.save()
        bold = QFont(opt.font)
        bold.setBold(True)
        full_name, stamp = str(index.data(NAME_ROLE)), str(index.data(WHEN_ROLE))
        file = bool(index.data(FILE_ROLE))
        name, stamp_below = title_layout(full_name, stamp, QFontMetrics(bold), rect.width(), file)
        pen = opt.palette.color(QPalette.ColorRole.Text)  # selection is a light tint
        muted = opt.palette.color(QPalette.ColorRole.PlaceholderText)
        line = QFontMetrics(bold).lineSpacing()
        mark = QColor(opt.palette.color(QPalette.ColorRole.Highlight))
        mark.setAlpha(90)
        self._draw(painter, bold, (pen, mark), rect.x(), rect.y(), name)
        metrics = QFontMetrics(opt.font)
        y = rect.y() + line + 3
        painter.setPen(muted)
        if stamp_below:
            painter.setFont(opt.font)
            painter.drawText(rect.x(), y + metrics.ascent(), stamp)
            y += metrics.lineSpacing()
        else:
            painter.setFont(bold)
            painter.drawText(rect.x(), rect.y(), rect.width(), line, Qt.AlignmentFlag.AlignRight, stamp)
        lines = self.PREVIEW_LINES - int(stamp_below)
        for text in preview_lines(str(index.data(PREVIEW_ROLE)), metrics, rect.width(), lines):
            self._draw(painter, opt.font, (muted, mark), rect.x(), y, text)
            y += metrics.lineSpacing()
        painter.restore()

    def _draw(self, painter: QPainter, font: QFont, colours: tuple[QColor, QColor], x: int, y: int, text: str) -> None:
        """One line of text at (x, y) in colours[0], the query's matches on colours[1]."""
        metrics = QFontMetrics(font)
        pen, mark = colours
        for start, end in match_spans(text, self.query):
            left = x + metrics.horizontalAdvance(text[:start])
            painter.fillRect(left, y, metrics.horizontalAdvance(text[start:end]), metrics.height(), mark)
        painter.setFont(font)
        painter.setPen(pen)
        painter.drawText(x, y + metrics.ascent(), text)

    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        metrics = QFontMetrics(option.font)
        bold = QFont(option.font)
        bold.setBold(True)
        return QSize(200, 14 + 3 + QFontMetrics(bold).lineSpacing() + metrics.lineSpacing() * self.PREVIEW_LINES + 4)

"""The history side panel: search, open and delete saved transcripts."""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from app.settings.history import EntryKind, HistoryEntry, HistoryStore

Confirm = Callable[[QWidget, str], bool]
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


def entry_label(entry: HistoryEntry) -> str:
    """Two lines: what it is and when, then the start of its text (also the accessible text)."""
    preview = " ".join(entry.text.split())
    if len(preview) > 140:
        preview = preview[:138].rstrip() + "…"
    kind = "Dictation" if entry.kind == EntryKind.DICTATION else entry.title
    return f"{kind} · {when(entry.created)}\n{preview or '(no text)'}"


class EntryDelegate(QStyledItemDelegate):
    """Paints an entry as a bold title line over a muted, elided preview."""

    PREVIEW_LINES = 2

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        title, _, preview = str(index.data(Qt.ItemDataRole.DisplayRole)).partition("\n")
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
        painter.setFont(bold)
        painter.setPen(opt.palette.color(QPalette.ColorRole.Text))  # selection is a light tint
        line = QFontMetrics(bold).height()
        painter.drawText(rect.x(), rect.y(), rect.width(), line, Qt.AlignmentFlag.AlignLeft,
                         QFontMetrics(bold).elidedText(title, Qt.TextElideMode.ElideRight, rect.width()))
        painter.setFont(opt.font)
        painter.setPen(opt.palette.color(QPalette.ColorRole.PlaceholderText))
        body = rect.adjusted(0, line + 3, 0, 0)
        painter.drawText(body, int(Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap),
                         _elide_lines(preview, QFontMetrics(opt.font), body.width(), self.PREVIEW_LINES))
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        metrics = QFontMetrics(option.font)
        return QSize(200, 14 + metrics.height() * (1 + self.PREVIEW_LINES) + 5)


def _elide_lines(text: str, metrics: QFontMetrics, width: int, lines: int) -> str:
    """At most `lines` wrapped lines of `text`, the last one elided when text remains."""
    out: list[str] = []
    words = text.split()
    while words and len(out) < lines:
        line = words.pop(0)
        while words and metrics.horizontalAdvance(f"{line} {words[0]}") <= width:
            line += " " + words.pop(0)
        out.append(line)
    if words:
        out[-1] = metrics.elidedText(f"{out[-1]} {' '.join(words)}", Qt.TextElideMode.ElideRight, width)
    return "\n".join(out)


class HistoryPanel(QWidget):
    """The searchable list of past dictations and file transcripts; `open_entry(title, text)`."""

    open_entry = Signal(str, str)  # title, text

    def __init__(self, history: HistoryStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.history = history
        self.confirm_delete: Confirm = _ask_delete
        self.setAccessibleName("History")
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Search transcripts")
        self.search.setAccessibleName("Search history")
        self.search.setClearButtonEnabled(True)
        self.list = QListWidget(self)
        self.list.setAccessibleName("Saved transcripts")
        self.list.setItemDelegate(EntryDelegate(self.list))
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setVerticalScrollMode(QListWidget.ScrollMode.ScrollPerPixel)
        self.open_button = QPushButton("Open", self)
        self.open_button.setAccessibleName("Open selected transcript")
        self.delete_button = QPushButton("Delete", self)
        self.delete_button.setAccessibleName("Delete selected transcript")
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.delete_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.search)
        layout.addWidget(self.list, 1)
        layout.addLayout(buttons)
        self._debounce = QTimer(self, singleShot=True, interval=150)
        self._debounce.timeout.connect(self.refresh)
        self.search.textChanged.connect(self._debounce.start)
        self.list.itemActivated.connect(lambda _item: self.open_selected())
        self.list.currentItemChanged.connect(lambda *_: self._update_buttons())
        self.open_button.clicked.connect(self.open_selected)
        self.delete_button.clicked.connect(self.delete_selected)
        self.refresh()

    def refresh(self) -> None:
        selected = self.selected_id()
        self.list.clear()
        for entry in self.history.search(self.search.text()):
            item = QListWidgetItem(entry_label(entry))
            item.setData(Qt.ItemDataRole.UserRole, entry.id)
            item.setToolTip(entry.source or entry.title)
            self.list.addItem(item)
            if entry.id == selected:
                self.list.setCurrentItem(item)
        self._update_buttons()

    def selected_id(self) -> int | None:
        item = self.list.currentItem()
        return int(item.data(Qt.ItemDataRole.UserRole)) if item else None

    def open_selected(self) -> None:
        entry_id = self.selected_id()
        entry = self.history.get(entry_id) if entry_id is not None else None
        if entry is not None:
            title = f"{entry.title} · {when(entry.created)}"
            self.open_entry.emit(title, entry.text)

    def delete_selected(self) -> None:
        entry_id = self.selected_id()
        if entry_id is None or not self.confirm_delete(self, "Delete this transcript?"):
            return
        self.history.delete(entry_id)
        self.refresh()

    def _update_buttons(self) -> None:
        has = self.list.currentItem() is not None
        self.open_button.setEnabled(has)
        self.delete_button.setEnabled(has)


def _ask_delete(parent: QWidget, question: str) -> bool:
    answer = QMessageBox.question(
        parent, "Delete transcript", question + "\nThis cannot be undone."
    )
    return answer == QMessageBox.StandardButton.Yes

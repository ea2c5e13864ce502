"""The history side panel: search, open (the review view), rename, export and delete saved transcripts."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QInputDialog,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.controller.playback import PlaybackController
from app.controller.review import from_entry
from app.engine.export.file_names import DEFAULT_NAME_MAX, fitted_name
from app.engine.export.formats import ExportError
from app.history.store import EntryKind, HistoryEntry, HistoryStore
from app.ui.empty_states import EmptyHint, history_hint
from app.ui.history_actions import AskPath, ask_export_path, export_entry, export_formats, file_stem
from app.ui.history_delegate import (
    FILE_ROLE,
    NAME_ROLE,
    PREVIEW_ROLE,
    WHEN_ROLE,
    EntryDelegate,
    entry_label,
    entry_preview,
    entry_stamp,
    when,
)
from app.ui.review_view import ReviewView

log = logging.getLogger(__name__)
Confirm = Callable[[QWidget, str], bool]
AskName = Callable[[QWidget, str], str | None]  # parent, current name -> new name (None: cancelled)
AnyIndex = QModelIndex | QPersistentModelIndex


class HistoryPanel(QWidget):
    """Search, open (to read, edit and rename), export and delete saved transcripts; a context
    menu on each entry and the Delete key do the same."""

    open_entry = Signal(str, str)  # name, text: an entry was opened in the editor

    def __init__(self, history: HistoryStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.history = history
        self.confirm_delete: Confirm = _ask_delete
        self.ask_export_path: AskPath = ask_export_path
        self.ask_name: AskName = _ask_name
        self.editor: ReviewView | None = None
        self.playback: PlaybackController | None = None
        """Plays a clicked word of an opened entry (None: the review view plays nothing)."""
        self.hotkey = ""  # named in the empty History's hint
        self.setAccessibleName("History")
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Search transcripts")
        self.search.setAccessibleName("Search history")
        self.search.setClearButtonEnabled(True)
        self.list = QListWidget(self)
        self.list.setAccessibleName("Saved transcripts")
        self.delegate = EntryDelegate(self.list)
        self.list.setItemDelegate(self.delegate)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setVerticalScrollMode(QListWidget.ScrollMode.ScrollPerPixel)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.hint = EmptyHint(self.list)
        self.open_button = QPushButton("Open", self)
        self.open_button.setAccessibleName("Open selected transcript")
        self.delete_button = QPushButton("Delete", self)
        self.delete_button.setAccessibleName("Delete selected transcript")
        self._build_layout()
        delete = QAction("Delete", self.list, shortcut=QKeySequence(Qt.Key.Key_Delete))
        delete.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        delete.triggered.connect(self.delete_selected)
        self.list.addAction(delete)
        self._debounce = QTimer(self, singleShot=True, interval=150)
        self._debounce.timeout.connect(self.refresh)
        self.search.textChanged.connect(self._debounce.start)
        self.list.itemActivated.connect(lambda _item: self.open_selected())
        self.list.currentItemChanged.connect(lambda *_: self._update_buttons())
        self.list.customContextMenuRequested.connect(self._show_menu)
        self.open_button.clicked.connect(self.open_selected)
        self.delete_button.clicked.connect(self.delete_selected)
        self.refresh()

    def _build_layout(self) -> None:
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.delete_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.search)
        layout.addWidget(self.list, 1)
        layout.addLayout(buttons)

    def refresh(self) -> None:
        selected = self.selected_id()
        self.list.clear()
        self.delegate.query = self.search.text()
        query = self.search.text()
        entries = self.history.search(query)
        self.hint.show_text("" if entries else history_hint(query, self.hotkey))
        for entry in entries:
            item = QListWidgetItem(entry_label(entry))
            item.setData(Qt.ItemDataRole.UserRole, entry.id)
            item.setData(NAME_ROLE, entry.name)
            item.setData(WHEN_ROLE, entry_stamp(entry))
            item.setData(FILE_ROLE, entry.kind is EntryKind.FILE)
            item.setData(PREVIEW_ROLE, entry_preview(entry, query) or "(no text)")
            stopped = "Incomplete: the run was stopped before the end." if entry.stopped_at_s else ""
            item.setToolTip("\n".join(filter(None, (entry.source, stopped, entry_preview(entry)[:300]))))
            self.list.addItem(item)
            if entry.id == selected:
                self.list.setCurrentItem(item)
        self._update_buttons()

    def set_hotkey(self, hotkey: str) -> None:
        """The global hotkey ("" = none), named in the hint of an empty History."""
        self.hotkey = hotkey
        self.refresh()

    def selected_id(self) -> int | None:
        item = self.list.currentItem()
        return int(item.data(Qt.ItemDataRole.UserRole)) if item else None

    def selected_entry(self) -> HistoryEntry | None:
        entry_id = self.selected_id()
        return self.history.get(entry_id) if entry_id is not None else None

    def open_selected(self) -> None:
        """The entry in the review view: segments with times, a clicked word played, the text
        and name edited and saved."""
        entry = self.selected_entry()
        if entry is None:
            return
        audio = self.playback.audio_for(entry) if self.playback is not None else None
        self.editor = ReviewView(from_entry(entry, audio), self.history, self.playback, self)
        self.editor.saved.connect(self.refresh)
        self.editor.show()
        self.open_entry.emit(entry.name, entry.text)

    def revert_selected(self) -> None:
        entry = self.selected_entry()
        if entry is not None and entry.edited:
            self.history.revert(entry.id)
            self.refresh()

    def rename_selected(self) -> None:
        entry = self.selected_entry()
        if entry is None:
            return
        name = self.ask_name(self, entry.name)
        if name is not None:
            self.history.rename(entry.id, name)
            self.refresh()

    def export_selected(self, fmt: str) -> Path | None:
        """Ask where, then write the selected entry as `fmt`; None when not written."""
        entry = self.selected_entry()
        if entry is None:
            return None
        name = fitted_name(file_stem(entry), f".{fmt}", DEFAULT_NAME_MAX)  # the dialog's folder is not known yet
        target = self.ask_export_path(self, name, fmt)
        if target is None:
            return None
        try:
            return export_entry(entry, fmt, target)
        except (ExportError, ValueError) as exc:
            log.exception("Exporting %s failed", target)
            QMessageBox.warning(self, "Not exported", str(exc))
            return None

    def delete_selected(self) -> None:
        entry = self.selected_entry()
        if entry is None or not self.confirm_delete(self, f"Delete “{entry.name}” ({when(entry.created)})?"):
            return
        self.history.delete(entry.id)
        self.refresh()

    def entry_menu(self) -> QMenu:
        """The context menu of the selected entry."""
        menu = QMenu(self)
        menu.addAction("Open", self.open_selected)
        menu.addAction("Rename…", self.rename_selected)
        entry = self.selected_entry()
        if entry is not None and entry.edited:
            menu.addAction("Revert to the text as transcribed", self.revert_selected)
        for fmt, why in export_formats(entry) if entry is not None else []:
            action = menu.addAction(f"Export as {fmt.upper()}…", functools.partial(self.export_selected, fmt))
            action.setEnabled(why is None)
            if why:
                action.setToolTip(f"{fmt.upper()} is unavailable: {why}")
        menu.setToolTipsVisible(True)
        menu.addSeparator()
        menu.addAction("Delete", self.delete_selected)
        return menu

    def _show_menu(self, point: QPoint) -> None:
        item = self.list.itemAt(point)
        if item is not None:
            self.list.setCurrentItem(item)
            self.entry_menu().exec(self.list.viewport().mapToGlobal(point))

    def _update_buttons(self) -> None:
        has = self.list.currentItem() is not None
        self.open_button.setEnabled(has)
        self.delete_button.setEnabled(has)


def _ask_name(parent: QWidget, current: str) -> str | None:
    name, ok = QInputDialog.getText(parent, "Rename transcript", "Name (empty: its first words):", text=current)
    return name if ok else None


def _ask_delete(parent: QWidget, question: str) -> bool:
    answer = QMessageBox.question(parent, "Delete transcript", question + "\nThis cannot be undone.")
    return answer == QMessageBox.StandardButton.Yes

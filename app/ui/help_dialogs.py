"""Help > Keyboard shortcuts, Help > Spoken commands and the About box (log file, licences)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QMessageBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

import app
from app.diagnostics import log_file_path
from app.dictation.command_match import EDIT_PHRASES, LITERAL_WORD, CommandKind
from app.dictation.spoken_commands import DEFAULT_FILLERS, SPOKEN_COMMANDS
from app.ui.icons import ICON_DIR

NOTICES = ICON_DIR.parent / "THIRD_PARTY_NOTICES.txt"
_SHOWN_TEXT = {"\n": "a new line", "\n\n": "a new paragraph"}
EDIT_EFFECTS = {
    CommandKind.SCRATCH: "the last thing you said is taken back",
    CommandKind.DELETE_WORD: "the last word is taken back",
    CommandKind.CAP: "the words after it with a capital letter (“cap london”: London)",
    CommandKind.ALL_CAPS: "the words after it in capitals (“all caps nasa”: NASA)",
}
"""What each editing command does, as the Spoken commands table says it."""
KEYBOARD_EXTRAS = (
    ("Move between controls", "Tab / Shift+Tab"),
    ("Press the focused button", "Space"),
    ("Close a dialog", "Esc"),
)


class HelpTable(QDialog):
    """A read-only two-column table with a note above it, opened window-modal."""

    def __init__(
        self,
        title: str,
        note: str,
        headers: tuple[str, str],
        rows: Iterable[tuple[str, str]],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setAccessibleName(title)
        self.resize(520, 480)
        self.note = QLabel(note, self)
        self.note.setWordWrap(True)
        rows = list(rows)
        self.table = QTableWidget(len(rows), 2, self)
        self.table.setAccessibleName(title)
        self.table.setHorizontalHeaderLabels(list(headers))
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        for row, (left, right) in enumerate(rows):
            self.table.setItem(row, 0, QTableWidgetItem(left))
            self.table.setItem(row, 1, QTableWidgetItem(right))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

    def rows(self) -> list[tuple[str, str]]:
        """The table as shown: (left, right) per row."""

        def cell(row: int, column: int) -> str:
            item = self.table.item(row, column)
            return item.text() if item is not None else ""

        return [(cell(r, 0), cell(r, 1)) for r in range(self.table.rowCount())]


def shortcut_rows(actions: Mapping[str, QAction], hotkey: str) -> list[tuple[str, str]]:
    """(what it does, keys) for every menu action with a shortcut, the global hotkey, and Tab."""
    rows = [
        (act.text().replace("&", "").rstrip("…"), act.shortcut().toString(QKeySequence.SequenceFormat.NativeText))
        for act in actions.values()
        if not act.shortcut().isEmpty()
    ]
    if hotkey:
        rows.append(("Start or stop dictation from any app (global hotkey)", hotkey))
    return rows + list(KEYBOARD_EXTRAS)


def show_shortcuts(parent: QWidget, actions: Mapping[str, QAction], hotkey: str) -> HelpTable:
    note = "The global hotkey is set in Settings > Dictate into apps."
    dialog = HelpTable("Keyboard shortcuts", note, ("Action", "Keys"), shortcut_rows(actions, hotkey), parent)
    dialog.open()
    return dialog


def spoken_command_rows() -> list[tuple[str, str]]:
    """(what to say, what you get) for every editing command, every spoken punctuation command
    the post-processor knows, and the "literal" escape."""
    rows: dict[str, list[str]] = {}
    for phrase in EDIT_PHRASES:
        words = f"{phrase.words} …" if phrase.takes_words else phrase.words
        rows.setdefault(EDIT_EFFECTS[phrase.kind], []).append(words)
    for command in SPOKEN_COMMANDS:
        shown = _SHOWN_TEXT.get(command.text, command.text)
        rows.setdefault(shown, []).append(" ".join(command.words))
    rows["the words after it, as words (“literal comma”: comma)"] = [f"{LITERAL_WORD} …"]
    return [(" or ".join(f"“{p}”" for p in phrases), shown) for shown, phrases in rows.items()]


def show_spoken_commands(parent: QWidget, enabled: bool) -> HelpTable:
    state = "on" if enabled else "off (turn it on in Settings > Dictate into apps)"
    fillers = ", ".join(sorted(DEFAULT_FILLERS))
    note = (
        f"Say these while dictating. A command said on its own, between pauses, is recognised even"
        f" when the model writes it as words that sound alike; in a longer sentence only the punctuation"
        f" words are. Taking words back in another app works while the focus stays there."
        f" Spoken commands are {state}. Filler words are left out when that option is on: {fillers}."
    )
    dialog = HelpTable("Spoken commands", note, ("Say", "You get"), spoken_command_rows(), parent)
    dialog.open()
    return dialog


def about_text() -> str:
    """The About box: version, privacy, the log file and the licences, as links."""
    log = log_file_path()
    folder = QUrl.fromLocalFile(str(log.parent)).toString()
    return (
        f"<h3>Earshot {app.__version__}</h3><p>Offline dictation and transcription with Whisper."
        "<br>Your audio never leaves this computer.</p>"
        f'<p>Log file (the link opens its folder): <a href="{folder}">{log}</a></p>'
        "<p>Earshot is MIT licensed. The Whisper model weights are by OpenAI, MIT licensed. "
        f'<a href="{QUrl.fromLocalFile(str(NOTICES)).toString()}">Third-party notices</a></p>'
    )


def show_about(window: QWidget) -> QMessageBox:
    """Opened window-modal, not exec()'d: the window keeps running while it is up."""
    box = QMessageBox(QMessageBox.Icon.Information, "About Earshot", "", QMessageBox.StandardButton.Ok, window)
    box.setObjectName("aboutBox")
    box.setTextFormat(Qt.TextFormat.RichText)
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)  # the links open
    box.setText(about_text())
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box

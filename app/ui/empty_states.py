"""What an empty window teaches: the first-start text (every way in: Record, files, folders, the
hotkey) and the History's hint when it has nothing to list, or nothing matches a search."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractScrollArea, QLabel, QTextEdit

from app.controller.app_controller import AppController
from app.settings.schema import Settings


def first_start_text(hotkey: str) -> str:
    """The transcript's placeholder: how to dictate here, in other apps, and how to transcribe files."""
    elsewhere = (
        f"In any other app, press {hotkey} to dictate into it."
        if hotkey
        else "To dictate into other apps, set a hotkey in Settings > Dictate into apps."
    )
    return (
        "Press Record (Ctrl+R) and start speaking — your words appear here.\n\n"
        f"{elsewhere}\n\n"
        "Drop audio or video files, or a whole folder, on this window to transcribe them "
        "(or File > Open files… / Open folder…)."
    )


def history_hint(query: str, hotkey: str) -> str:
    """The History's text when it lists nothing: no match for `query`, or nothing saved yet."""
    if query.strip():
        return (
            f"No transcript contains “{query.strip()}”.\n\n"
            "Search looks in names and in the whole text; try fewer letters."
        )
    key = f", press {hotkey} in any app" if hotkey else ""
    return (
        "No transcripts yet.\n\n"
        f"Dictations and transcribed files are kept here. Press Record{key}, or drop "
        "files or a folder on the window to start."
    )


MARGIN = 16


class EmptyHint(QLabel):
    """A centred, wrapped text over an item view's viewport while the view lists nothing."""

    def __init__(
        self, view: QAbstractScrollArea, name: str = "History hint", margin: int = MARGIN, top: int = 2 * MARGIN
    ) -> None:
        super().__init__(view.viewport())
        self.side, self.top = margin, top
        self.setObjectName("muted")
        self.setAccessibleName(name)
        self.setWordWrap(True)
        self.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        view.viewport().installEventFilter(self)
        self.hide()

    def show_text(self, text: str) -> None:
        """Show `text` ("" hides the hint)."""
        self.setText(text)
        self.setVisible(bool(text))
        self._fit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self._fit()
        return False

    def _fit(self) -> None:
        """The whole viewport's width less margins, and the height its wrapped text needs."""
        viewport = self.parentWidget()
        if viewport is None:
            return
        area = viewport.rect().adjusted(self.side, self.top, -self.side, -self.side)
        self.setGeometry(area.x(), area.y(), area.width(), max(self.heightForWidth(area.width()), 0))


class NamesTheHotkey(Protocol):
    def set_hotkey(self, hotkey: str) -> None: ...


class FirstSteps(EmptyHint):
    """The transcript's first-start text while it is empty (QTextEdit's own placeholder shows
    one line only: the text after it was cut off), naming the hotkey set now and after each
    change, which the History's hint names too."""

    def __init__(self, transcript: QTextEdit, history: NamesTheHotkey, controller: AppController) -> None:
        margin = int(transcript.document().documentMargin())
        super().__init__(transcript, "First steps", margin=margin, top=margin)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.transcript, self.history = transcript, history
        self.steps = ""
        transcript.setPlaceholderText("")
        self.show_settings(controller.settings)
        controller.settings_changed.connect(self.show_settings)
        transcript.textChanged.connect(self.follow_text)

    def show_settings(self, settings: Settings) -> None:
        hotkey = settings.output.hotkey.strip()
        self.steps = first_start_text(hotkey)
        self.follow_text()
        self.history.set_hotkey(hotkey)

    def follow_text(self) -> None:
        self.show_text(self.steps if self.transcript.document().isEmpty() else "")

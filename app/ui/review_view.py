"""The one review view of a transcript, a dictation's or a file job's alike (History Open, a
job's Open): its segments with their start times, a clicked word played from its time, the
text edited segment by segment so each keeps its times (the History entry's text follows).

An entry the user edited shows the text as transcribed beside it, with Revert. Playback goes
through the controller (`app.controller.playback`): a file's media file, a dictation's audio
when Settings kept it.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.controller.playback import PlaybackController
from app.controller.review import ReviewDocument, clock, from_entry
from app.history.store import EntryKind, HistoryStore
from app.ui.segment_editor import SegmentEditor

log = logging.getLogger(__name__)

NO_DICTATION_AUDIO = (
    "No audio was kept for this dictation. To hear dictations again, turn on Settings > "
    "Dictation > Keep dictation audio for playback."
)


def audio_hint(document: ReviewDocument) -> str:
    """What the line under the text says before anything is played."""
    if not document.timed:
        return "This text has no times (it was edited as a whole, or transcribed without them)."
    if document.audio is not None:
        return "Click a word to hear it from there. Edit any segment: its times stay."
    if document.kind is EntryKind.DICTATION:
        return NO_DICTATION_AUDIO
    return "The media file is no longer there, so nothing can be played. Edit any segment: its times stay."


class ReviewView(QDialog):
    """One transcript to review. `history` stores edits when `document.entry_id` is set."""

    saved = Signal()

    def __init__(
        self,
        document: ReviewDocument,
        history: HistoryStore,
        playback: PlaybackController | None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.document, self.history, self.playback = document, history, playback
        self.setWindowTitle(document.title)
        self.setAccessibleName(f"Transcript {document.title}")
        self.resize(760, 520)
        entry = history.get(document.entry_id) if document.entry_id is not None else None
        self.name = QLineEdit(entry.title if entry else "", self)
        self.name.setPlaceholderText(document.title)
        self.name.setAccessibleName("Name")
        self.name.setEnabled(entry is not None)
        self.text = SegmentEditor(self)
        self.original = QPlainTextEdit(self)
        self.original.setReadOnly(True)
        self.original.setAccessibleName("Text as transcribed")
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.status.setAccessibleName("Playback")
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._build(entry is not None)
        self.text.word_clicked.connect(self.play_from)
        self._load(document, entry.original if entry and entry.edited else "")

    def _build(self, in_history: bool) -> None:
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Close, self)
        self.save_button = buttons.button(QDialogButtonBox.StandardButton.Save)
        self.save_button.setEnabled(in_history)
        self.play_button = QPushButton("Play from cursor", self)
        self.play_button.setToolTip("Play the audio from the word at the text cursor")
        self.stop_button = QPushButton("Stop", self)
        for button in (self.play_button, self.stop_button):
            buttons.addButton(button, QDialogButtonBox.ButtonRole.ActionRole)
        copy = buttons.addButton("Copy", QDialogButtonBox.ButtonRole.ActionRole)
        copy.setAccessibleName("Copy transcript")
        copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.plain_text()))
        self.revert_button = buttons.addButton("Revert to original", QDialogButtonBox.ButtonRole.ResetRole)
        self.revert_button.setToolTip("Replace the edited text by the text as it was transcribed")
        self.revert_button.clicked.connect(self.revert)
        self.play_button.clicked.connect(self.play_at_cursor)
        self.stop_button.clicked.connect(self.stop)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        self.original_label = QLabel("As transcribed", self)
        side = QWidget(self)
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        side_layout.addWidget(self.original_label)
        side_layout.addWidget(self.original, 1)
        self.original_pane = side
        splitter = QSplitter(self)
        splitter.addWidget(self.text)
        splitter.addWidget(side)
        form = QFormLayout()
        form.addRow("Name", self.name)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.status)
        layout.addWidget(buttons)

    def _load(self, document: ReviewDocument, original: str) -> None:
        self.document = document
        self.text.set_segments(document.segments)
        self.original.setPlainText(original)
        self.original_pane.setVisible(bool(original))
        self.revert_button.setVisible(bool(original))
        playable = document.audio is not None and document.timed and self.playback is not None
        self.play_button.setEnabled(playable)
        self.stop_button.setEnabled(playable)
        self.status.setText(audio_hint(document))

    def plain_text(self) -> str:
        return " ".join(t.strip() for t in self.text.segment_texts() if t.strip())

    # --- playback --------------------------------------------------------------------

    def play_from(self, segment: int, start_s: float) -> None:
        """Play the audio from `start_s` (a click in segment `segment`)."""
        if self.playback is None or self.document.audio is None:
            return
        from app.audio.playback import PlaybackError  # NumPy and PortAudio load with the first click

        try:
            self.playback.play(self.document.audio, start_s)
        except PlaybackError as exc:
            self.status.setText(str(exc))
            return
        self.status.setText(f"Playing from {clock(start_s)} (segment {segment + 1}). Stop ends it.")

    def play_at_cursor(self) -> None:
        cursor = self.text.textCursor()
        number = cursor.blockNumber()
        if self.text.aligned():
            segment = self.document.segments[number]
            self.play_from(number, segment.time_at(cursor.block().text(), cursor.positionInBlock()))

    def stop(self) -> None:
        if self.playback is not None:
            self.playback.stop()
        self.status.setText(audio_hint(self.document))

    def done(self, result: int) -> None:
        if self.playback is not None:
            self.playback.stop()  # closing the view ends what it plays
        super().done(result)

    # --- saving ----------------------------------------------------------------------

    def revert(self) -> None:
        """The text as transcribed replaces the edited one, in the History and here."""
        if self.document.entry_id is None:
            return
        self.history.revert(self.document.entry_id)
        entry = self.history.get(self.document.entry_id)
        if entry is not None:
            self._load(from_entry(entry, self.document.audio), entry.original if entry.edited else "")
        self.saved.emit()

    def save(self) -> None:
        """Store the name and each edited segment's text (its times stay) in the History."""
        entry_id = self.document.entry_id
        entry = self.history.get(entry_id) if entry_id is not None else None
        if entry_id is None or entry is None:  # deleted meanwhile: keep the view, say nothing was there
            self.setWindowTitle("This transcript is not in the History")
            return
        if self.name.text().strip() != entry.title:
            self.history.rename(entry_id, self.name.text())
        texts = self.text.segment_texts()
        if self.text.aligned() and self.document.timed:
            if texts != [s.text for s in self.document.segments]:
                self.history.set_segments(entry_id, self.document.edited_pieces(texts))
        elif self.text.toPlainText() != entry.text:
            self.history.set_text(entry_id, self.text.toPlainText())
        self.saved.emit()
        self.accept()

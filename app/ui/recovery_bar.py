"""The offer, after a crash, to transcribe the dictation audio that was never transcribed."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from app.dictation.audio_journal import LeftoverAudio

if TYPE_CHECKING:
    from app.controller.app_controller import AppController
    from app.ui.widgets import NoticeBar

log = logging.getLogger(__name__)


class RecoveryBar(QFrame):
    """A one-line, non-modal offer above the transcript: Transcribe (a file job, so the text
    lands in the History) or Discard. Several leftovers are offered one after the other."""

    def __init__(self, controller: AppController, notice: NoticeBar, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.notice = notice
        self.setObjectName("noticeBar")  # styled like the notice bar
        self.setAccessibleName("Recover dictation")
        self.leftover: LeftoverAudio | None = None
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.transcribe_button = QPushButton("Transcribe", self)
        self.transcribe_button.setAccessibleName("Transcribe the recovered audio")
        self.discard_button = QPushButton("Discard", self)
        self.discard_button.setAccessibleName("Discard the recovered audio")
        self.transcribe_button.clicked.connect(self.transcribe)
        self.discard_button.clicked.connect(self.discard)
        row = QHBoxLayout(self)
        row.setContentsMargins(18, 8, 12, 8)
        row.addWidget(self.label, 1)
        row.addWidget(self.transcribe_button)
        row.addWidget(self.discard_button)
        self.hide()

    def offer_next(self, handled: LeftoverAudio | None = None) -> None:
        """Show the oldest leftover not yet handled, or hide."""
        rest = [x for x in self.controller.leftover_audio() if handled is None or x.folder != handled.folder]
        self.leftover = rest[0] if rest else None
        if self.leftover is None:
            self.hide()
            return
        self.label.setText(
            f"Earshot was closed during a dictation: {round(self.leftover.duration_s)} s of audio "
            "after the last saved words were not transcribed."
        )
        self.show()

    def transcribe(self) -> None:
        leftover = self.leftover
        if leftover is None:
            return
        try:
            self.controller.recover(leftover)
        except OSError as exc:  # the disk is full or the folder went away: the journal stays
            log.exception("Could not start transcribing the recovered audio")
            self.notice.show_message(f"The recovered audio could not be transcribed: {exc.strerror or exc}.")
        self.offer_next(leftover)

    def discard(self) -> None:
        leftover = self.leftover
        if leftover is not None:
            self.controller.discard_leftover(leftover)
            self.offer_next(leftover)

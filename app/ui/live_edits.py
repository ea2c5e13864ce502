"""Saves the user's edits of the live transcript to the history entries of their sessions.

Edits are written (after a short pause in typing) to every session whose text in the view
differs from its entry; the session still being dictated waits until it has ended, since its
worker appends to the entry meanwhile (the entry then gets the edited text with every commit
the window has shown: the session's events are all shown before it ends).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

from app.controller.dictation import DictationController
from app.settings.history import HistoryStore
from app.ui.transcript_view import TranscriptView

log = logging.getLogger(__name__)

SAVE_AFTER_MS = 600
"""Pause in typing before an edit is written."""


class LiveEditSaver(QObject):
    def __init__(self, view: TranscriptView, dictation: DictationController, history: HistoryStore,
                 on_saved: Callable[[], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._view, self._dictation, self._history, self._on_saved = view, dictation, history, on_saved
        self._current: int | None = None  # the entry of the session being dictated
        self._timer = QTimer(self, singleShot=True, interval=SAVE_AFTER_MS)
        self._timer.timeout.connect(self.save)
        view.edited.connect(self._timer.start)
        view.clearing.connect(self._save_now)
        dictation.session_started.connect(self._on_session_started)
        dictation.state_changed.connect(self._on_state)

    def save(self) -> None:
        """Write each edited session's text to its entry (not the one still being dictated)."""
        saved = False
        for entry_id, text in self._view.session_texts():
            if entry_id == self._current:
                continue
            entry = self._history.get(entry_id)
            if entry is not None and entry.text != text:
                try:
                    self._history.set_text(entry_id, text)
                    saved = True
                except Exception:
                    log.exception("The edited transcript could not be saved to the history")
        if saved:
            self._on_saved()

    def _save_now(self) -> None:
        if self._timer.isActive():
            self._timer.stop()
            self.save()

    def _on_session_started(self, entry_id: int) -> None:
        self._view.start_session(entry_id)
        self._current = entry_id

    def _on_state(self, _state: object, _reason: str = "") -> None:
        if self._current is not None and not self._dictation.active:
            self._current = None
            self.save()  # edits made while it was dictated

"""Saves the user's edits of the live transcript to the history entries of their sessions.

Edits are written after a short pause in typing, to the entries of the sessions whose text the
user changed in the view. The session still being dictated waits until it has ended, since its
worker appends to the entry meanwhile; then its entry has every commit the view has shown (the
session's events are all shown before it ends), so any difference is the user's edit.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

from app.controller.dictation import DictationController
from app.history.store import HistoryStore
from app.ui.transcript_view import TranscriptView

log = logging.getLogger(__name__)

SAVE_AFTER_MS = 600
"""Pause in typing before an edit is written."""


class LiveEditSaver(QObject):
    def __init__(
        self,
        view: TranscriptView,
        dictation: DictationController,
        history: HistoryStore,
        on_saved: Callable[[], None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._view, self._dictation, self._history, self._on_saved = view, dictation, history, on_saved
        self._current: int | None = None  # the entry of the session being dictated
        self._seen: dict[int, str] = {}  # entry id -> its text in the view when last looked at
        self._timer = QTimer(self, singleShot=True, interval=SAVE_AFTER_MS)
        self._timer.timeout.connect(self.save)
        self._edited_while_dictating = False  # the view was edited while the current session ran
        view.edited.connect(self._on_edited)
        view.clearing.connect(self._save_now)
        dictation.session_started.connect(self._on_session_started)
        dictation.state_changed.connect(self._on_state)

    def save(self) -> None:
        """Write each session the user edited in the view since the last look to its entry
        (not the one still being dictated); an entry edited elsewhere (the History's editor)
        is left alone unless its text is edited here again."""
        saved = False
        for entry_id, text in self._view.session_texts():
            if entry_id != self._current and text != self._seen.get(entry_id, text):
                saved = self._write(entry_id, text) or saved
            if entry_id != self._current:
                self._seen[entry_id] = text
        if saved:
            self._on_saved()

    def _write(self, entry_id: int, text: str) -> bool:
        try:
            self._history.set_text(entry_id, text)
        except Exception:
            log.exception("The edited transcript could not be saved to the history")
            return False
        return True

    def _on_edited(self) -> None:
        self._edited_while_dictating = self._edited_while_dictating or self._current is not None
        self._timer.start()

    def _session_over(self, entry_id: int) -> None:
        """Its entry has every commit the view shows: a difference is the user's edits (looked
        for only when there were edits: a cancelled session's last commits may be still on
        their way to the view)."""
        text = dict(self._view.session_texts()).get(entry_id)
        entry = self._history.get(entry_id) if self._edited_while_dictating else None
        self._edited_while_dictating = False
        if text is not None and entry is not None and entry.text != text and self._write(entry_id, text):
            self._on_saved()
        if text is not None:
            self._seen[entry_id] = text

    def _save_now(self) -> None:
        if self._timer.isActive():
            self._timer.stop()
            self.save()

    def _on_session_started(self, entry_id: int) -> None:
        self._view.start_session(entry_id)
        self._current = entry_id

    def _on_state(self, _state: object, _reason: str = "") -> None:
        if self._current is not None and not self._dictation.active:
            ended, self._current = self._current, None
            self._session_over(ended)  # edits made while it was dictated
            self.save()

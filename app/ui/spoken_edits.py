"""Spoken editing commands in the transcript window: the same `EndEdit` the history got."""

from __future__ import annotations

from collections.abc import Callable

from app.controller.dictation import DictationController
from app.dictation.voice_edits import CommandEvent
from app.ui.transcript_view import TranscriptView

EDITED_THERE = "The words to take back were edited in the window, so they stay there (the History has the change)."


def show_spoken_edits(view: TranscriptView, dictation: DictationController, say: Callable[[str], None]) -> None:
    """Apply each command that takes text back to `view`; `say` shows the one line when it cannot."""

    def apply(event: CommandEvent) -> None:
        if event.edit is None:
            say(event.message)
        elif not view.take_back_end(event.edit.removed, event.edit.inserted):
            say(EDITED_THERE)

    dictation.command.connect(apply)

"""What the record bar shows, derived in one place from the dictation's and the model's states.

The controller combines its inputs (model loading, loaded, kept) here and offers one
`changed(RecordDisplay)` signal, so the views only render it and never work it out themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal

from app.controller.dictation import DictationController
from app.controller.model_manager import ModelManager
from app.controller.states import ModelState, RecordState

LOADING_DETAIL = "Dictation is ready in a moment"


@dataclass(frozen=True)
class RecordDisplay:
    """The record bar's state and the line under it (a reason for ERROR, a hint otherwise)."""

    state: RecordState
    detail: str = ""


def record_display(dictation: RecordState, reason: str, model: ModelState, model_error: str) -> RecordDisplay:
    """While nothing is being recorded the model's state is what the user needs to see (it is
    loading; it failed, and why); during a session, the session's state."""
    resting = dictation in (RecordState.IDLE, RecordState.ERROR, RecordState.LOADING_MODEL)
    if resting and model is ModelState.FAILED and model_error:
        return RecordDisplay(RecordState.ERROR, model_error)
    if dictation is RecordState.IDLE and model is ModelState.LOADING:
        return RecordDisplay(RecordState.LOADING_MODEL, LOADING_DETAIL)
    return RecordDisplay(dictation, reason)


class RecordDisplayState(QObject):
    """Follows the dictation and the model; `changed` carries each new `RecordDisplay`."""

    changed = Signal(object)  # RecordDisplay

    def __init__(self, dictation: DictationController, models: ModelManager, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._dictation, self._models = dictation, models
        self._model_error = ""
        self.current = RecordDisplay(RecordState.IDLE)
        dictation.state_changed.connect(lambda *_: self._update())
        models.state_changed.connect(self._on_model_state)
        models.failed.connect(self._on_model_failed)

    def _on_model_state(self, state: ModelState) -> None:
        if state is not ModelState.FAILED:
            self._model_error = ""
        self._update()

    def _on_model_failed(self, message: str) -> None:
        self._model_error = message
        self._update()

    def _update(self) -> None:
        shown = record_display(self._dictation.state, self._dictation.reason, self._models.state, self._model_error)
        if shown != self.current:
            self.current = shown
            self.changed.emit(shown)

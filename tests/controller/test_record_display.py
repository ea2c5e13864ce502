"""The record bar's display state is one function of the dictation's and the model's states
(no fakes needed: it is plain data in, plain data out)."""

from __future__ import annotations

from app.controller.record_display import LOADING_DETAIL, RecordDisplay, record_display
from app.controller.states import ModelState, RecordState


def test_while_idle_the_bar_shows_the_model_loading_or_failing() -> None:
    assert record_display(RecordState.IDLE, "", ModelState.LOADING, "") == RecordDisplay(
        RecordState.LOADING_MODEL, LOADING_DETAIL)
    assert record_display(RecordState.IDLE, "", ModelState.READY, "") == RecordDisplay(RecordState.IDLE)
    assert record_display(RecordState.IDLE, "", ModelState.NOT_LOADED, "") == RecordDisplay(RecordState.IDLE)
    failed = record_display(RecordState.IDLE, "", ModelState.FAILED, "Could not load x. Open Settings.")
    assert failed == RecordDisplay(RecordState.ERROR, "Could not load x. Open Settings.")


def test_a_record_click_on_a_failed_model_still_says_why_the_model_failed() -> None:
    shown = record_display(RecordState.ERROR, "The model did not load. Open Settings.", ModelState.FAILED,
                           "Could not load x at fp32: missing. Pick another model or precision in Settings.")
    assert shown.state is RecordState.ERROR and shown.detail.startswith("Could not load x")


def test_during_a_session_the_bar_shows_the_session_even_while_a_new_model_loads() -> None:
    for state in (RecordState.LISTENING, RecordState.HEARING_SPEECH, RecordState.FINISHING):
        assert record_display(state, "", ModelState.LOADING, "") == RecordDisplay(state)
    lost = record_display(RecordState.ERROR, "Microphone lost.", ModelState.READY, "")
    assert lost == RecordDisplay(RecordState.ERROR, "Microphone lost.")

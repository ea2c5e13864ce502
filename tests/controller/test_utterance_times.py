"""The times a dictation's History entry keeps per utterance: an utterance's closing mark,
committed with the next utterance's first words, ends the utterance it closes."""

from __future__ import annotations

from app.controller.dictation_text import UtteranceTimes
from app.dictation.events import DictationEvent, EventType

COMMIT, FINAL, SUMMARY = EventType.COMMIT, EventType.FINAL, EventType.SUMMARY


def test_the_held_back_full_stop_goes_to_the_utterance_it_ends() -> None:
    times = UtteranceTimes()
    events = [
        DictationEvent(COMMIT, "Good morning", 0, 0.2, 1.0),
        DictationEvent(FINAL, " everyone", 0, 1.0, 1.8),  # its "." is held back
        DictationEvent(COMMIT, ". Question:", 1, 2.1, 2.9),
        DictationEvent(FINAL, " who is coming?", 1, 2.9, 4.0),
        DictationEvent(SUMMARY),
    ]
    pieces = [piece for event in events for piece in times.update(event)]
    assert [p.text.strip() for p in pieces] == ["Good morning everyone.", "Question: who is coming?"]
    assert [(p.start, p.end) for p in pieces] == [(0.2, 1.8), (2.1, 4.0)]

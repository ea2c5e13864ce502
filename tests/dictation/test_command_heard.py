"""Commands heard by the decoder's score where the text says none: the listener's rules and the
gate's use of what it heard, on a scripted scorer (the real decoder's scores are exercised in
tests/dictation/test_voice_commands_replay.py and measured by bench/command_scores.py)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from numpy.typing import NDArray

from app.dictation.command_heard import CommandListener
from app.dictation.command_match import SCORED_PHRASES, CommandKind, CommandOptions
from app.dictation.events import DictationEvent, EventType
from app.dictation.postprocess import PostProcessOptions, TextPostProcessor
from app.dictation.voice_edits import CommandEvent, CommandGate

AUDIO = np.zeros(16000, dtype=np.float32)


class ScriptedScorer:
    """Scores one phrase at `score` and every other at -8 (far below any threshold)."""

    def __init__(self, phrase: str, score: float) -> None:
        self.phrase, self.score = phrase, score
        self.calls = 0

    def score_phrases(self, audio: NDArray[np.float32], phrases: Sequence[str]) -> list[float]:
        self.calls += 1
        return [self.score if p == self.phrase else -8.0 for p in phrases]


def listener(phrase: str = "period", score: float = -1.0) -> tuple[CommandListener, ScriptedScorer]:
    scorer = ScriptedScorer(phrase, score)
    return CommandListener(scorer, CommandOptions()), scorer


def test_a_short_utterance_written_as_other_words_is_heard_as_its_command() -> None:
    heard, _ = listener("period", -1.2)
    assert heard.heard(" Here we go.", lambda: AUDIO) == "period"


def test_a_phrase_scored_below_the_threshold_is_not_a_command() -> None:
    heard, _ = listener("period", CommandOptions().min_phrase_score - 0.5)
    assert heard.heard(" Here we go.", lambda: AUDIO) is None


def test_long_utterances_and_commands_the_text_says_are_not_scored() -> None:
    heard, scorer = listener()
    assert heard.heard(" We will meet again in the spring.", lambda: AUDIO) is None
    assert heard.heard(" Comma.", lambda: AUDIO) is None  # the text already says it
    assert heard.heard("", lambda: AUDIO) is None
    assert scorer.calls == 0


def test_only_phrases_without_words_after_them_are_scored() -> None:
    assert "scratch that" in SCORED_PHRASES and "new paragraph" in SCORED_PHRASES
    assert "cap" not in SCORED_PHRASES and "all caps" not in SCORED_PHRASES


def test_a_decoder_that_cannot_score_gets_no_listener() -> None:
    assert CommandListener.for_decoder(object(), CommandOptions()) is None
    assert CommandListener.for_decoder(ScriptedScorer("period", 0.0), None) is None
    assert CommandListener.for_decoder(ScriptedScorer("period", 0.0), CommandOptions()) is not None


def test_the_threshold_is_a_log_probability() -> None:
    with pytest.raises(ValueError, match="log-probability"):
        CommandOptions(min_phrase_score=0.5)


def gate_text(*events: DictationEvent) -> tuple[str, list[CommandEvent]]:
    g = CommandGate(TextPostProcessor(PostProcessOptions()))
    commands: list[CommandEvent] = []
    for event in events:
        commands += [o for o in g.process(event) if isinstance(o, CommandEvent)]
    return g.text, commands


def test_the_gate_applies_a_heard_command_instead_of_its_words() -> None:
    text, commands = gate_text(
        DictationEvent(EventType.FINAL, " Send the report to the whole team today."),
        DictationEvent(EventType.FINAL, " Crash mode.", command="scratch that"),
        DictationEvent(EventType.FINAL, " Call the office."),
    )
    assert [c.kind for c in commands] == [CommandKind.SCRATCH]
    assert text == "Call the office."


def test_a_heard_line_break_writes_the_break_not_the_words() -> None:
    text, _ = gate_text(
        DictationEvent(EventType.FINAL, " The meeting is over."),
        DictationEvent(EventType.FINAL, " New pair of gloves.", command="new paragraph"),
        DictationEvent(EventType.FINAL, " Thanks."),
    )
    assert "gloves" not in text and "\n\n" in text
    assert text.endswith("Thanks.")


def test_a_heard_command_is_ignored_when_the_gate_is_off() -> None:
    g = CommandGate(TextPostProcessor(PostProcessOptions()), enabled=False)
    g.process(DictationEvent(EventType.FINAL, " Crash mode.", command="scratch that"))
    assert g.text == "Crash mode."

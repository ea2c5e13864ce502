"""Commands heard by the decoder's score where the text says none: the listener's rules and the
gate's use of what it heard, on a scripted scorer (the real decoder's scores are exercised in
tests/dictation/test_voice_commands_replay.py and measured by bench/command_scores.py)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from numpy.typing import NDArray

from app.dictation.command_heard import CommandListener, decide
from app.dictation.command_match import (
    PREFIX_PHRASES,
    SCORED_PHRASES,
    CommandKind,
    CommandOptions,
    match_command,
)
from app.dictation.events import DictationEvent, EventType, HeardPhrase
from app.dictation.postprocess import PostProcessOptions, TextPostProcessor
from app.dictation.voice_edits import CommandEvent, CommandGate
from app.engine.types import PhraseFit

AUDIO = np.zeros(16000, dtype=np.float32)


class ScriptedScorer:
    """Scores one phrase at `score`, those in `others` at theirs and every other at -12 (far below
    any threshold); each phrase is one token a word, or as many as `tokens` says; made to start
    with a phrase, it writes `after`."""

    def __init__(
        self,
        phrase: str,
        score: float,
        after: str = "",
        others: dict[str, float] | None = None,
        tokens: dict[str, int] | None = None,
    ) -> None:
        self.phrase, self.score, self.after = phrase, score, after
        self.others, self.tokens = others or {}, tokens or {}
        self.calls = 0
        self.scored: list[str] = []
        self.prefixes: list[str] = []

    def score_phrases(self, audio: NDArray[np.float32], phrases: Sequence[str]) -> list[PhraseFit]:
        self.calls += 1
        self.scored = list(phrases)
        return [
            PhraseFit(self.score if p == self.phrase else self.others.get(p, -12.0), self.tokens.get(p, len(p.split())))
            for p in phrases
        ]

    def words_after(self, audio: NDArray[np.float32], prefix: str) -> str:
        self.prefixes.append(prefix)
        return self.after


def listener(phrase: str = "period", score: float = -1.0) -> tuple[CommandListener, ScriptedScorer]:
    scorer = ScriptedScorer(phrase, score)
    return CommandListener(scorer, CommandOptions()), scorer


def test_a_short_utterance_is_scored_and_the_best_phrase_reported() -> None:
    heard, _ = listener("period", -1.2)
    assert heard.heard(" Here we go.", lambda: AUDIO) == HeardPhrase("period", -1.2)


def test_long_utterances_and_a_commands_very_sound_are_not_scored() -> None:
    heard, scorer = listener()
    assert heard.heard(" We will meet again in the spring.", lambda: AUDIO) is None
    assert heard.heard(" Comma.", lambda: AUDIO) is None  # exactly the sound of "comma"
    assert heard.heard(" Cap London.", lambda: AUDIO) is None  # "cap" and the words it applies to
    assert heard.heard("", lambda: AUDIO) is None
    assert scorer.calls == 0


def test_a_text_that_only_sounds_like_a_command_is_scored_too() -> None:
    heard, scorer = listener("undo that", -6.0)
    assert match_command(" Not today.") is not None  # by sound, "undo that"
    assert heard.heard(" Not today.", lambda: AUDIO) == HeardPhrase("undo that", -6.0)
    assert scorer.calls == 1


def test_the_decoder_confirms_or_overrules_a_text_that_sounds_like_a_command() -> None:
    options = CommandOptions()
    found = match_command(" Not today.")
    assert decide(found, HeardPhrase("undo that", options.min_confirm_score + 0.5), options) == found
    assert decide(found, HeardPhrase("undo that", options.min_confirm_score - 0.5), options) is None
    # the decoder's best by weight is "comma"; the text's phrase scores well enough itself
    assert decide(found, HeardPhrase("comma", -4.0, text_phrase_score=-4.5), options) == found
    # it likes "comma" far better than a poorly scored "undo that"
    taken = decide(found, HeardPhrase("comma", -3.0, text_phrase_score=-6.0), options)
    assert taken is not None and taken.phrase.words == "comma"
    # neither: "undo that" scores poorly and "comma" under its own threshold
    assert decide(found, HeardPhrase("comma", -4.0, text_phrase_score=-6.0), options) is None


def test_a_text_like_close_quote_that_the_decoder_hears_as_close_paren_closes_a_paren() -> None:
    # tiny.en wrote a slow "close paren" as "Close the end." (by sound "close quote"); the decoder
    # scored "close paren" -3.6 and "close quote" -7.5
    heard = CommandListener(ScriptedScorer("close paren", -3.6, others={"close quote": -7.5}), CommandOptions())
    found = match_command(" Close the end.")
    assert found is not None and found.phrase.words == "close quote"
    phrase = heard.heard(" Close the end.", lambda: AUDIO)
    assert phrase == HeardPhrase("close paren", -3.6, text_phrase_score=-7.5)
    taken = decide(found, phrase, CommandOptions())
    assert taken is not None and taken.phrase.punctuation is not None and taken.phrase.punctuation.text == ")"


def test_a_phrase_that_writes_the_texts_mark_confirms_it() -> None:
    found = match_command(" Open for analysis.")  # "open parenthesis" by sound
    assert found is not None and found.phrase.words == "open parenthesis"
    assert decide(found, HeardPhrase("open paren", -1.4, text_phrase_score=-1.7), CommandOptions()) == found


def test_the_best_phrase_is_weighed_by_its_tokens_not_their_mean() -> None:
    # a slow "colon" written "Go learn.": "colon" (one token) -6.1; "semicolon" -5.1 a token, but
    # only because "icol" and "on" are near certain after a " sem" at -13.8
    scorer = ScriptedScorer("colon", -6.1, others={"semicolon": -5.1}, tokens={"semicolon": 3})
    heard = CommandListener(scorer, CommandOptions()).heard(" Go learn.", lambda: AUDIO)
    assert heard == HeardPhrase("colon", -6.1)
    taken = decide(None, heard, CommandOptions())
    assert taken is not None and taken.phrase.words == "colon"


def test_a_short_utterance_written_as_many_words_is_scored() -> None:
    heard, scorer = listener("exclamation mark", -3.0)
    text = " Next, let me show you Mark."  # a slow "exclamation mark", 1.6 s
    assert heard.heard(text, lambda: AUDIO, seconds=1.6) == HeardPhrase("exclamation mark", -3.0)
    assert heard.heard(text, lambda: AUDIO, seconds=CommandOptions().max_command_s + 0.5) is None
    assert heard.heard(text, lambda: AUDIO) is None  # length unknown: the words decide
    assert scorer.calls == 1


def test_nothing_is_scored_once_the_gate_has_written_the_utterances_words_as_text() -> None:
    heard, scorer = listener("exclamation mark", -3.0)
    # five words committed before the end: the gate wrote them at once, a command would be ignored
    earlier = " Next, let me show you"
    assert heard.heard(earlier + " Mark.", lambda: AUDIO, seconds=1.6, earlier=earlier) is None
    assert scorer.calls == 0
    assert heard.heard(" Next, let me show you Mark.", lambda: AUDIO, seconds=1.6, earlier=" Next,") is not None


def test_without_a_score_the_text_decides() -> None:
    found = match_command(" Crash note.")
    assert found is not None and decide(found, None, CommandOptions()) == found
    assert decide(None, None, CommandOptions()) is None
    dots = match_command(" dot dot dot dot")  # a phrase the decoder does not score
    assert dots is not None and decide(dots, HeardPhrase("semicolon", -5.5), CommandOptions()) == dots


def test_only_phrases_without_words_after_them_are_scored() -> None:
    assert "scratch that" in SCORED_PHRASES and "new paragraph" in SCORED_PHRASES
    assert "cap" not in SCORED_PHRASES and "all caps" not in SCORED_PHRASES
    assert "dot dot dot" not in SCORED_PHRASES and "ellipsis" in SCORED_PHRASES


def test_cap_heard_at_the_start_applies_to_the_words_the_decoder_writes_after_it() -> None:
    scorer = ScriptedScorer("cap", -2.0, " London.")
    heard = CommandListener(scorer, CommandOptions()).heard(" Captain London.", lambda: AUDIO)
    assert heard == HeardPhrase("cap", -2.0, " London.")
    assert scorer.prefixes == ["Cap"]  # the decoder was made to start with the phrase
    found = decide(match_command(" Captain London."), heard, CommandOptions())
    assert found is not None and found.kind is CommandKind.CAP and found.argument == "London."


def test_a_start_that_scores_under_the_threshold_is_not_a_command() -> None:
    options = CommandOptions()
    scorer = ScriptedScorer("all caps", options.min_prefix_score - 0.5, " assets")
    heard = CommandListener(scorer, options).heard(" All capital assets.", lambda: AUDIO)
    assert heard is not None and heard.words not in PREFIX_PHRASES
    assert scorer.prefixes == []  # no decode for the words after it
    assert decide(match_command(" All capital assets."), heard, options) is None


def test_one_word_is_scored_as_the_start_of_a_command_too() -> None:
    """The live decode of "cap london" (espeak-ng, tiny.en int8) can be "Captain." alone."""
    scorer = ScriptedScorer("cap", -2.5, " London.")
    heard = CommandListener(scorer, CommandOptions()).heard(" Captain.", lambda: AUDIO)
    assert heard == HeardPhrase("cap", -2.5, " London.")
    scorer = ScriptedScorer("cap", -2.5, "tain.")  # the decoder spells "Captain" on
    heard = CommandListener(scorer, CommandOptions()).heard(" Captain.", lambda: AUDIO)
    assert heard is not None and heard.words not in PREFIX_PHRASES


def test_cap_heard_with_no_words_or_too_many_after_it_is_text() -> None:
    options = CommandOptions()
    assert decide(None, HeardPhrase("cap", -1.0, "."), options) is None
    many = " ".join(["word"] * (options.max_argument_words + 1))
    assert decide(None, HeardPhrase("cap", -1.0, " " + many), options) is None


def test_a_decoder_that_spells_the_utterances_word_on_heard_no_cap() -> None:
    """tiny.en on espeak-ng's "Captain Cook": made to start with "Cap", it writes " tin Coke"
    ("cap" + "tin" is "captain" said again), where "cap london" heard as "Captain London" gives
    " London"."""
    scorer = ScriptedScorer("cap", -2.2, " tin Coke")
    heard = CommandListener(scorer, CommandOptions()).heard(" Captain Cook.", lambda: AUDIO)
    assert heard is not None and heard.words not in PREFIX_PHRASES
    assert decide(match_command(" Captain Cook."), heard, CommandOptions()) is None
    scorer = ScriptedScorer("all caps", -1.6, ", nasa.")
    heard = CommandListener(scorer, CommandOptions()).heard(" Okay, next.", lambda: AUDIO)
    found = decide(match_command(" Okay, next."), heard, CommandOptions())
    assert found is not None and found.kind is CommandKind.ALL_CAPS and found.argument == "nasa."


def test_the_gate_writes_the_words_after_a_heard_cap_with_a_capital() -> None:
    text, _ = gate_text(
        DictationEvent(EventType.FINAL, " We flew to"),
        DictationEvent(EventType.FINAL, " Captain London.", command=HeardPhrase("cap", -2.0, " london.")),
    )
    assert text.endswith(" London") and "Captain" not in text


def test_a_decoder_that_cannot_score_gets_no_listener() -> None:
    assert CommandListener.for_decoder(object(), CommandOptions()) is None
    assert CommandListener.for_decoder(ScriptedScorer("period", 0.0), None) is None
    assert CommandListener.for_decoder(ScriptedScorer("period", 0.0), CommandOptions()) is not None


def test_the_thresholds_are_log_probabilities_in_order() -> None:
    with pytest.raises(ValueError, match="log-probabilities"):
        CommandOptions(min_phrase_score=0.5)
    with pytest.raises(ValueError, match="log-probabilities"):
        CommandOptions(min_phrase_score=-3.0, min_confirm_score=-2.0)
    with pytest.raises(ValueError, match="log-probability"):
        CommandOptions(min_prefix_score=0.5)


def gate_text(*events: DictationEvent) -> tuple[str, list[CommandEvent]]:
    g = CommandGate(TextPostProcessor(PostProcessOptions()))
    commands: list[CommandEvent] = []
    for event in events:
        commands += [o for o in g.process(event) if isinstance(o, CommandEvent)]
    return g.text, commands


def test_the_gate_applies_a_heard_command_instead_of_its_words() -> None:
    text, commands = gate_text(
        DictationEvent(EventType.FINAL, " Send the report to the whole team today."),
        DictationEvent(EventType.FINAL, " Crash mode.", command=HeardPhrase("scratch that", -1.0)),
        DictationEvent(EventType.FINAL, " Call the office."),
    )
    assert [c.kind for c in commands] == [CommandKind.SCRATCH]
    assert text == "Call the office."


def test_a_heard_line_break_writes_the_break_not_the_words() -> None:
    text, _ = gate_text(
        DictationEvent(EventType.FINAL, " The meeting is over."),
        DictationEvent(EventType.FINAL, " New pair of gloves.", command=HeardPhrase("new paragraph", -1.0)),
        DictationEvent(EventType.FINAL, " Thanks."),
    )
    assert "gloves" not in text and "\n\n" in text
    assert text.endswith("Thanks.")


def test_a_heard_command_is_ignored_when_the_gate_is_off() -> None:
    g = CommandGate(TextPostProcessor(PostProcessOptions()), enabled=False)
    g.process(DictationEvent(EventType.FINAL, " Crash mode.", command=HeardPhrase("scratch that", -1.0)))
    assert g.text == "Crash mode."


def test_literal_misheard_with_a_command_after_it_writes_the_commands_words() -> None:
    scorer = ScriptedScorer("literal comma", -2.1)
    heard = CommandListener(scorer, CommandOptions()).heard(" little comment.", lambda: AUDIO)
    assert heard == HeardPhrase("literal", -2.1, "comma")
    found = decide(match_command(" little comment."), heard, CommandOptions())
    assert found is not None and found.kind is CommandKind.LITERAL and found.argument == "comma"
    text, commands = gate_text(
        DictationEvent(EventType.FINAL, " Put a"),
        DictationEvent(EventType.FINAL, " literal comment.", command=heard),
    )
    assert text.endswith("comma") and "comment" not in text and commands == []


def test_literal_phrases_are_scored_only_after_a_word_that_sounds_like_literal() -> None:
    heard, scorer = listener("literal comma", -1.0)
    assert heard.heard(" Little comment.", lambda: AUDIO) == HeardPhrase("literal", -1.0, "comma")
    assert "literal period" in scorer.scored
    assert heard.heard(" Good comment.", lambda: AUDIO) != HeardPhrase("literal", -1.0, "comma")
    assert not any(p.startswith("literal ") for p in scorer.scored)


def test_literal_under_the_threshold_leaves_the_words_heard() -> None:
    scorer = ScriptedScorer("literal comma", -6.0)
    heard = CommandListener(scorer, CommandOptions()).heard(" literal comment.", lambda: AUDIO)
    found = decide(match_command(" literal comment."), heard, CommandOptions())
    assert found is not None and found.kind is CommandKind.LITERAL and found.argument == "comment."


def test_literal_with_a_commands_very_words_is_not_scored() -> None:
    heard, scorer = listener("literal comma", -1.0)
    assert heard.heard(" literal comma", lambda: AUDIO) is None
    assert scorer.calls == 0

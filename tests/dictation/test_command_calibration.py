"""Each command phrase taken at its own score: a phrase that ordinary speech never scores high
("period", "colon") is taken lower than one it does ("semicolon"). The gate's rule on scripted
scores; the table behind it is measured by `python bench/command_scores.py --calibrate`, and the
recall and false triggers by `python bench/command_scores.py`."""

from __future__ import annotations

import pytest

from app.dictation.command_calibration import ORDINARY_BEST, phrase_threshold
from app.dictation.command_heard import decide
from app.dictation.command_match import SCORED_PHRASES, CommandOptions, match_command
from app.dictation.events import HeardPhrase

OPTIONS = CommandOptions()


def test_every_scored_phrase_has_its_score_on_ordinary_speech() -> None:
    assert set(ORDINARY_BEST) == set(SCORED_PHRASES)


def test_a_slowly_said_period_that_the_text_misses_is_taken_at_a_score_ordinary_speech_never_reaches() -> None:
    # tiny.en wrote "period" said slowly as "Be a real good." (no match by sound); the decoder
    # scored "period" best at -4.3, far above the -7.9 that ordinary speech ever gave it
    assert match_command(" Be a real good.") is None
    taken = decide(None, HeardPhrase("period", -4.3), OPTIONS)
    assert taken is not None and taken.phrase.words == "period"


def test_a_phrase_ordinary_speech_scores_high_still_needs_the_one_threshold() -> None:
    # "semicolon" reached -4.6 on "yes please": at -4.3 it is not taken
    assert decide(None, HeardPhrase("semicolon", -4.3), OPTIONS) is None
    assert decide(None, HeardPhrase("semicolon", OPTIONS.min_phrase_score + 0.1), OPTIONS) is not None


def test_no_phrase_is_taken_below_the_lowest_score() -> None:
    assert decide(None, HeardPhrase("colon", OPTIONS.lowest_phrase_score - 0.1), OPTIONS) is None
    assert decide(None, HeardPhrase("colon", OPTIONS.lowest_phrase_score + 0.1), OPTIONS) is not None


def test_where_the_text_sounds_like_another_command_the_lower_scores_do_not_overrule_it() -> None:
    # "scratch that" written "Crush not." sounds like it; the decoder liked "question mark" at -4.0
    # and "scratch that" at -4.1: hardly below, so the text's command stands
    found = match_command(" Crush not.")
    assert found is not None and found.phrase.words == "scratch that"
    assert decide(found, HeardPhrase("question mark", -4.0, text_phrase_score=-4.1), OPTIONS) == found
    # with "scratch that" under the confirming score, neither is typed
    low = OPTIONS.min_confirm_score - 0.5
    assert decide(found, HeardPhrase("question mark", low + 0.5, text_phrase_score=low), OPTIONS) is None


@pytest.mark.parametrize("phrase", sorted(SCORED_PHRASES))
def test_each_threshold_lies_between_the_lowest_and_the_one_for_all(phrase: str) -> None:
    threshold = phrase_threshold(phrase, OPTIONS)
    assert OPTIONS.lowest_phrase_score <= threshold <= OPTIONS.min_phrase_score
    assert threshold >= ORDINARY_BEST[phrase] + OPTIONS.phrase_margin or threshold == OPTIONS.min_phrase_score


def test_the_margin_and_the_lowest_score_are_checked() -> None:
    with pytest.raises(ValueError, match="phrase_margin"):
        CommandOptions(phrase_margin=-1.0)
    with pytest.raises(ValueError, match="lowest_phrase_score"):
        CommandOptions(lowest_phrase_score=-3.0, min_phrase_score=-3.5)
    one_for_all = CommandOptions(lowest_phrase_score=OPTIONS.min_phrase_score)
    assert all(phrase_threshold(p, one_for_all) == OPTIONS.min_phrase_score for p in SCORED_PHRASES)

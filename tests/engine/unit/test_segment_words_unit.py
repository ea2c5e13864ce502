"""Words handed to segments and kept inside them (app/engine/timing/segment_words.py), and times
kept inside the audio (app/engine/timing/time_clamp.py). Plain data in, plain data out."""

from __future__ import annotations

import math

import pytest

from app.engine.timing.segment_words import WordContext, attach_words, clamp_words, token_probabilities
from app.engine.timing.time_clamp import clamp_in_place, clamp_segments
from app.engine.types import Segment, Word


def spans(words: list[Word] | None) -> list[tuple[str, float, float]]:
    return [(w.word, w.start, w.end) for w in words or []]


def test_each_segment_takes_its_words_by_token_count_at_absolute_times() -> None:
    segments = [Segment(0, 10.0, 11.0, " Hello world.", tokens=[1, 2, 3]),
                Segment(1, 11.0, 12.0, " Bye.", tokens=[4, 5])]
    words = [Word(" Hello", 0.0, 0.4, 0.9, [1]), Word(" world.", 0.4, 0.9, 0.8, [2, 3]),
             Word(" Bye.", 1.1, 1.6, 0.7, [4, 5])]
    context = WordContext(duration_s=60.0)
    attach_words(segments, words, 10.0, context)
    assert spans(segments[0].words) == [(" Hello", 10.0, 10.4), (" world.", 10.4, 10.9)]
    assert spans(segments[1].words) == [(" Bye.", 11.1, 11.6)]
    # Timestamps within half a second of the words give way to the words' edges.
    assert [(s.start, s.end) for s in segments] == [(10.0, 10.9), (11.1, 11.6)]
    assert context.last_speech_end == 11.6
    assert words[0].start == 0.0  # the window's words are copied, not moved


def test_a_segment_keeps_its_own_start_when_its_first_word_begins_much_earlier() -> None:
    segment = Segment(0, 11.0, 12.0, " Well", tokens=[1])
    attach_words([segment], [Word(" Well", 0.0, 1.3, 1.0, [1])], 10.0, WordContext(last_speech_end=9.9))
    # The word ran 1 s before the segment's timestamp: it is cut to start at the timestamp.
    assert spans(segment.words) == [(" Well", 11.0, 11.3)]
    assert segment.start == 11.0


def test_a_long_first_word_after_a_pause_is_cut_to_twice_the_median() -> None:
    """openai: the first word after a pause of more than 4 medians tends to start in the silence."""
    segment = Segment(0, 3.0, 6.2, " So then", tokens=[1, 2])
    words = [Word(" So", 3.0, 6.0, 1.0, [1]), Word(" then", 6.0, 6.2, 1.0, [2])]
    attach_words([segment], words, 0.0, WordContext())
    # median min(0.7, 1.6) = 0.7: " So" keeps its last 1.4 s.
    assert spans(segment.words) == [(" So", 4.6, 6.0), (" then", 6.0, 6.2)]
    assert segment.start == 4.6


def test_clamp_words_keeps_words_sorted_inside_the_segment_and_the_audio_without_overlap() -> None:
    segment = Segment(0, 1.0, 9.0, " a b c d")
    words = [Word(" a", 0.5, 1.5, 1.2), Word(" b", 1.4, 2.0, -0.1), Word(" c", 1.9, 1.8, 0.5),
             Word(" d", 7.0, 9.5, 0.123456)]
    clamp_words(segment, words, duration_s=8.0)
    assert (segment.start, segment.end) == (1.0, 8.0)
    assert spans(words) == [(" a", 1.0, 1.5), (" b", 1.5, 2.0), (" c", 2.0, 2.0), (" d", 7.0, 8.0)]
    assert [w.probability for w in words] == [1.0, 0.0, 0.5, 0.123]


def test_token_probabilities_are_the_text_tokens_exponentiated_log_probabilities() -> None:
    tokens, logprobs = [1, 100, 2, 101], [math.log(0.5), 0.0, math.log(0.25), 0.0]
    assert token_probabilities(tokens, logprobs, lambda t: t < 100) == pytest.approx([0.5, 0.25])
    assert token_probabilities(tokens, logprobs[:2], lambda t: t < 100) == [1.0, 1.0]  # no usable log-probs


# ----------------------------------------------------------------------------------- time_clamp

def test_times_past_the_end_of_the_audio_are_clamped_on_copies() -> None:
    inside = Segment(0, 1.0, 2.0, " in", words=[Word(" in", 1.0, 2.0, 1.0)])
    past = Segment(1, 53.0, 56.24, " out", words=[Word(" out", 53.5, 56.2, 1.0)])
    early = Segment(2, -0.3, 0.5, " early")
    out = clamp_segments([inside, past, early], 54.5)
    assert out[0] is inside  # nothing to change: not copied
    assert (out[1].start, out[1].end) == (53.0, 54.5)
    assert spans(out[1].words) == [(" out", 53.5, 54.5)]
    assert (out[2].start, out[2].end) == (0.0, 0.5)
    assert past.end == 56.24 and past.words is not None and past.words[0].end == 56.2  # the input is untouched


@pytest.mark.parametrize("duration", [0.0, -1.0, math.inf, math.nan])
def test_an_unknown_duration_leaves_the_times_alone(duration: float) -> None:
    past = Segment(0, 53.0, 56.24, " out")
    assert clamp_segments([past], duration)[0] is past


def test_clamp_in_place_changes_the_callers_segments() -> None:
    segment = Segment(0, 53.0, 56.24, " out", words=[Word(" out", 53.5, 56.2, 1.0)])
    clamp_in_place([segment], 54.5)
    assert segment.end == 54.5
    assert spans(segment.words) == [(" out", 53.5, 54.5)]

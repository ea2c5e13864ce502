"""Finding the sure speech a window's text passed over (app/engine/transcribe/speech_gaps.py):
stretches from the speech map, the check on word times, and where a fill goes. Pure functions
on made-up maps, segments and words; no model."""

from __future__ import annotations

import numpy as np
import pytest

from app.engine.transcribe.speech_gaps import (
    FRAME_S,
    Stretch,
    count_words,
    first_word_starts,
    merged,
    passed_over,
    sparse_stretches,
    sure_stretches,
    touching,
)
from app.engine.types import Segment, Word


def _map(*spans: tuple[float, float], length_s: float = 30.0, level: float = 0.9) -> np.ndarray:
    """A speech map [frames] float32 (32 ms each): `level` over each (start_s, end_s), 0 elsewhere."""
    probs = np.zeros(round(length_s / FRAME_S), dtype=np.float32)
    for start, end in spans:
        probs[round(start / FRAME_S) : round(end / FRAME_S)] = level
    return probs


def _segment(start: float, end: float, text: str, words: list[Word] | None = None) -> Segment:
    return Segment(id=0, start=start, end=end, text=text, words=words)


def _words(*spans: tuple[float, float]) -> list[Word]:
    return [Word(f" w{i}", start, end, 0.9) for i, (start, end) in enumerate(spans)]


def test_sure_frames_make_stretches_and_short_pauses_inside_them_are_bridged() -> None:
    probs = _map((1.0, 2.0), (2.2, 3.0), (5.0, 6.0))  # 0.2 s apart, then 2 s apart
    stretches = sure_stretches(probs, first_frame=0)
    assert [(s.start_s, s.end_s) for s in stretches] == [
        (pytest.approx(1.0, abs=FRAME_S), pytest.approx(3.0, abs=FRAME_S)),
        (pytest.approx(5.0, abs=FRAME_S), pytest.approx(6.0, abs=FRAME_S)),
    ]


def test_stretch_times_count_from_the_start_of_the_file() -> None:
    probs = _map((1.0, 2.0), length_s=5.0)
    (stretch,) = sure_stretches(probs, first_frame=1000)  # the window starts 32 s into the file
    assert stretch.start_s == pytest.approx(33.0, abs=FRAME_S)


def test_unsure_frames_make_no_stretch() -> None:
    assert sure_stretches(_map((1.0, 4.0), level=0.4), 0) == []


def test_a_stretch_is_passed_over_only_when_no_word_has_its_middle_in_it() -> None:
    covered, uncovered = Stretch(0.0, 2.0), Stretch(3.0, 5.0)
    words = _words((0.2, 0.6), (2.5, 3.2))  # the second word's middle is 2.85 s: before `uncovered`
    assert passed_over([covered, uncovered], words) == [uncovered]
    assert passed_over([Stretch(3.0, 3.5)], []) == []  # too short to hold a phrase


def test_a_long_stretch_that_holds_a_neighbours_few_words_is_sparse_and_not_empty() -> None:
    # a 3 s sentence in loud noise over which the alignment spread the next sentence's first two
    # words: two middles in 3 s, under one a second
    noisy, spoken = Stretch(10.0, 13.0), Stretch(13.5, 15.5)
    words = _words((10.5, 11.5), (11.5, 12.8), (13.5, 13.9), (13.9, 14.4), (14.4, 14.8), (14.8, 15.4))
    assert passed_over([noisy, spoken], words) == []
    assert sparse_stretches([noisy, spoken], words) == [noisy]  # the spoken one holds 4 in 2 s


def test_a_word_drawn_out_inside_a_sentence_makes_no_sparse_stretch() -> None:
    # "of the room reinforce themselves so that": two slow words inside a sentence, 2.4 s
    said = [(" of", 34.0, 34.3), (" the", 34.3, 34.5), (" room", 34.5, 35.0), (" reinforce", 35.5, 36.8),
            (" themselves", 36.8, 37.9), (" so", 38.1, 38.4), (" that.", 38.4, 38.8)]
    words = [Word(text, start, end, 0.9) for text, start, end in said]
    assert sparse_stretches([Stretch(35.6, 38.0)], words) == []
    # the same two words after a finished sentence are a neighbour's start spread over it
    words[2] = Word(" room.", 34.5, 35.0, 0.9)
    assert sparse_stretches([Stretch(35.6, 38.0)], words) == [Stretch(35.6, 38.0)]


def test_a_stretch_with_no_word_is_not_sparse_but_passed_over() -> None:
    stretch = Stretch(3.0, 5.0)
    assert sparse_stretches([stretch], _words((0.2, 0.6))) == []
    assert passed_over([stretch], _words((0.2, 0.6))) == [stretch]


def test_a_last_word_timed_over_a_pause_does_not_cover_the_speech_after_it() -> None:
    said, again = Stretch(0.0, 3.0), Stretch(4.0, 7.0)
    # "planks." is timed from 2.6 s to the segment's end at 6.5 s: its middle falls in `again`
    words = _words((0.2, 1.0), (1.0, 2.6), (2.6, 6.5))
    assert passed_over([said, again], words) == [again]


def test_a_word_that_starts_in_the_pause_before_a_stretch_still_covers_it() -> None:
    words = _words((3.5, 5.5), (5.5, 6.0))  # the first word's start drifted into the silence
    assert passed_over([Stretch(0.0, 3.0), Stretch(4.0, 7.0)], words) == [Stretch(0.0, 3.0)]


def test_words_touching_a_stretch_count_with_a_margin() -> None:
    words = _words((0.0, 2.9), (3.1, 3.3), (9.0, 9.5))
    assert touching(Stretch(3.0, 5.0), words) == 2  # the first ends 0.1 s before it: inside the margin


def test_a_fill_goes_in_time_order_and_a_segment_stretched_over_it_ends_where_it_starts() -> None:
    word = Word(" planks.", 4.0, 9.0, 0.8)
    before = _segment(0.0, 9.0, "The birch canoe slid on the smooth planks.", [word])
    after = _segment(10.0, 12.0, "And so it begins.")
    fill = _segment(5.0, 8.0, "The birch canoe slid on the smooth planks.")
    out = merged([before, after], [0.0, 10.0], [fill])
    assert out == [before, fill, after]
    assert before.end == 5.0 and word.end == 5.0 and word.start == 4.0
    assert count_words([fill]) == 8


def test_segments_are_put_in_order_by_their_first_words_not_their_timestamps() -> None:
    # Two sentences written in one segment, then a segment stamped at 131 s whose words start
    # at 137.5 s: a fill at 133 s goes between them, and the later segment starts after it.
    twice = _segment(124.0, 130.0, "Said once. Said twice.")
    later = _segment(131.0, 138.0, "The earliest book printed.")
    fill = _segment(133.2, 136.5, "Said a third time.")
    out = merged([twice, later], [124.2, 137.5], [fill])
    assert out == [twice, fill, later]
    assert later.start == 136.5 and later.end == 138.0


def test_a_window_s_own_segments_keep_their_order_and_none_is_emptied() -> None:
    # The second segment's words ran out: it keeps its own start, before the first one's words.
    first = _segment(10.0, 20.0, "Timed by its words.")
    second = _segment(12.0, 14.5, "Stamped early.")
    fill = _segment(13.0, 15.0, "Decoded alone.")
    out = merged([first, second], [16.0, 12.0], [fill])
    assert out == [fill, first, second]  # the window's two stay in their order
    assert (second.start, second.end) == (12.0, 14.5)  # moving its start past the fill would empty it


def test_each_segment_starts_where_its_first_word_does() -> None:
    first = Segment(id=0, start=10.0, end=14.0, text=" Two words.", tokens=[1, 2, 3])
    empty = Segment(id=1, start=14.0, end=14.0, text="", tokens=[])
    second = Segment(id=2, start=14.0, end=20.0, text=" One.", tokens=[4, 5])
    timed = [
        Word(" Two", 11.0, 11.5, 0.9, [1]),
        Word(" words.", 11.5, 12.0, 0.9, [2, 3]),
        Word(" One.", 16.5, 17.0, 0.9, [4, 5]),
    ]
    assert first_word_starts([first, empty, second], timed) == [11.0, 14.0, 16.5]


def test_a_segment_before_a_fill_that_ends_before_it_keeps_its_times() -> None:
    before = _segment(0.0, 4.0, "He began.")
    merged([before], [0.0], [_segment(5.0, 8.0, "Said again.")])
    assert (before.start, before.end) == (0.0, 4.0)

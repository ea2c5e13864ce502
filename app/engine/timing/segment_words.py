"""Hand a window's timed words to its segments, and keep every word inside its segment.

Times here are absolute seconds (window offset added). openai/whisper's rules for words after a
pause are kept (the attention of a first word drifts into the silence before it); then each word
is clamped into its segment, the audio, and after the word before it, so words are sorted and
never overlap.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from app.engine.timing.word_timing import median_word_duration
from app.engine.types import Segment, Word


@dataclass
class WordContext:
    """Carried from window to window: where the last speech ended (s), and the audio's length (s)."""

    last_speech_end: float = 0.0
    duration_s: float = float("inf")


def attach_words(segments: Sequence[Segment], words: Sequence[Word], offset_s: float, context: WordContext) -> None:
    """Give each of `segments` (one window's, in order; `tokens` text only) its words out of
    `words` (that window's, times relative to `offset_s`), by token count, as openai does."""
    median = median_word_duration(words)
    for segment, group in zip(segments, words_per_segment(segments, words), strict=True):
        mine = [Word(w.word, offset_s + w.start, offset_s + w.end, w.probability, list(w.tokens)) for w in group]
        if mine:
            fit_after_pause(mine, median, context.last_speech_end)
            _fit_segment_edges(segment, mine, median)
            context.last_speech_end = segment.end
        clamp_words(segment, mine, context.duration_s)
        segment.words = mine


def words_per_segment(segments: Sequence[Segment], words: Sequence[Word]) -> list[list[Word]]:
    """`words` (in order, with their tokens) handed to `segments` (in order) by token count, as
    openai does: each segment takes words until it has as many tokens as it holds."""
    out: list[list[Word]] = []
    index = 0
    for segment in segments:
        taken, mine = 0, []
        while index < len(words) and taken < len(segment.tokens):
            mine.append(words[index])
            taken += len(words[index].tokens)
            index += 1
        out.append(mine)
    return out


def fit_after_pause(words: list[Word], median: float, last_speech_end: float) -> None:
    """The first (and second) word after a pause longer than 4 medians, if too long, are cut to
    twice the median: their start otherwise sits in the silence."""
    max_duration = 2 * median
    first = words[0]
    second_too_long = len(words) > 1 and words[1].end - first.start > 2 * max_duration
    too_long = first.end - first.start > max_duration or second_too_long
    if first.end - last_speech_end <= 4 * median or not too_long:
        return
    if len(words) > 1 and words[1].end - words[1].start > max_duration:
        boundary = max(words[1].end / 2, words[1].end - max_duration)
        first.end = words[1].start = boundary
    first.start = max(0.0, first.end - max_duration)


def _fit_segment_edges(segment: Segment, words: list[Word], median: float) -> None:
    """Prefer the segment's own timestamps over a first/last word that runs 0.5 s past them;
    else the segment takes its words' edges."""
    first, last = words[0], words[-1]
    if segment.start < first.end and segment.start - 0.5 > first.start:
        first.start = max(0.0, min(first.end - median, segment.start))
    else:
        segment.start = first.start
    if segment.end > last.start and segment.end + 0.5 < last.end:
        last.end = max(last.start + median, segment.end)
    else:
        segment.end = last.end


def clamp_words(segment: Segment, words: list[Word], duration_s: float) -> None:
    """Times rounded to ms, inside [segment.start, segment.end] and the audio, sorted, no overlap."""
    segment.start = round(max(0.0, min(segment.start, duration_s)), 3)
    segment.end = round(max(segment.start, min(segment.end, duration_s)), 3)
    floor = segment.start
    for w in words:
        w.start = _within(w.start, floor, segment.end)
        w.end = _within(w.end, w.start, segment.end)
        w.probability = round(float(np.clip(w.probability, 0.0, 1.0)), 3)
        floor = w.end


def _within(value: float, low: float, high: float) -> float:
    return round(min(max(value, low), high), 3)


def token_probabilities(
    tokens: Sequence[int], logprobs: Sequence[float], is_text: Callable[[int], bool]
) -> list[float]:
    """The probabilities of the text tokens among `tokens` (one log-probability per token)."""
    if len(logprobs) != len(tokens):
        return [1.0 for t in tokens if is_text(t)]
    return [float(np.exp(lp)) for t, lp in zip(tokens, logprobs, strict=True) if is_text(t)]

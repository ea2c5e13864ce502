"""Speech a window's text passed over: sure speech in the speech map that no word covers.

Whisper sometimes writes a sentence said twice in a row once, or steps over a reverberant or
noisy sentence between two clean ones, and its timestamps then carry the seek past the speech
it left out: the text of a long file loses a phrase that the same audio decoded alone keeps.
The word times of the window's text (the alignment heads) show where that happened: a stretch
of speech the detector is sure of, long enough to hold a few words, in which no word has its
middle. Each such stretch is decoded on its own and its segments are put among the
window's in time order. The seek does not move, so the windows after it are decoded as before.

In loud noise the alignment can spread the next sentence's first words, or the last words of the
one before, over a sentence the window did not write, so its stretch is not empty but sparse:
fewer than one word's middle a second. A sparse stretch is mostly slow speech the window has (a
word between laughs), so it is decoded once, at the first temperature only, and its text is kept
only where it adds words and repeats no run of the window's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate, pairwise

import numpy as np
from numpy.typing import NDArray

from app.engine.sentence_ends import ends_sentence
from app.engine.timing.segment_words import words_per_segment
from app.engine.timing.window_words import shown
from app.engine.transcribe.speech_map import SPEECH_FRAME, SURE_PROB
from app.engine.types import SAMPLE_RATE, Segment, Word

HOLD_PROB = SURE_PROB - 0.15
"""Speech that reached `SURE_PROB` goes on while frames stay at or above this (the hysteresis of
Silero's own speech timestamps): a whisper's probability swings across `SURE_PROB` word by word."""
MIN_GAP_S = 1.0
"""A stretch shorter than this (a breath, a laugh, a word the detector alone hears) is left alone."""
BRIDGE_S = 0.3
"""Sure-speech frames closer than this belong to one stretch (the pauses between words)."""
JOIN_S = 1.0
"""Passed-over stretches closer than this with no word between them are one."""
SPARSE_WORDS_PER_S = 1.0
"""A stretch in which the window's words have their middles fewer than this many a second, words
that begin or end a sentence, is decoded on its own too: in loud noise the alignment spreads the
next sentence's first words, or the last words of the one before, over a sentence the window did
not write."""
COPIED_WORDS = 4
"""A sparse stretch's own decode that repeats this many consecutive words of the window's text
wrote words the window has (speech said slowly), not speech it passed over."""
MARGIN_S = 0.2
"""Audio kept either side of a stretch when it is decoded on its own (word edges the detector misses)."""
MIN_FILL_LOGPROB = -1.0
"""A stretch's own decode below this average log-probability is not trusted to be speech."""
MIN_NEW_WORDS = 2
"""A stretch's own decode is kept only with this many words more than the window's words that
touch it: a stretch that holds no word's middle may still lie under the end of a long word (one
said slowly between laughs), and its decode is then that word again."""

FRAME_S = SPEECH_FRAME / SAMPLE_RATE


@dataclass(frozen=True)
class Stretch:
    """Seconds from the start of the file."""

    start_s: float
    end_s: float

    @property
    def duration_s(self) -> float:
        return self.end_s - self.start_s


def sure_stretches(probabilities: NDArray[np.float32], first_frame: int) -> list[Stretch]:
    """Stretches of sure speech in `probabilities` [n] float32 (one per 32 ms speech-map frame,
    the first being frame `first_frame` of the file): runs of frames at or above `HOLD_PROB`,
    with gaps under `BRIDGE_S` bridged, that reach `SURE_PROB` somewhere."""
    held = np.flatnonzero(probabilities >= HOLD_PROB)
    if not held.size:
        return []
    breaks = np.flatnonzero(np.diff(held) * FRAME_S > BRIDGE_S)
    starts = np.concatenate([held[:1], held[breaks + 1]])
    ends = np.concatenate([held[breaks], held[-1:]]) + 1
    return [
        Stretch((first_frame + int(a)) * FRAME_S, (first_frame + int(b)) * FRAME_S)
        for a, b in zip(starts, ends, strict=True)
        if float(probabilities[a:b].max()) >= SURE_PROB
    ]


def passed_over(stretches: Sequence[Stretch], words: Sequence[Word]) -> list[Stretch]:
    """The stretches of at least `MIN_GAP_S` that hold the middle of none of `words` (times in
    seconds from the start of the file). Neighbours are joined where no word's middle lies
    between them and they are under `JOIN_S` apart: a whisper's words are sure in pieces."""
    return _empty_stretches(stretches, _middles(stretches, words))


def sparse_stretches(stretches: Sequence[Stretch], words: Sequence[Word]) -> list[Stretch]:
    """The stretches of at least `MIN_GAP_S` that hold the middles of some of `words` (in order),
    but fewer than `SPARSE_WORDS_PER_S` a second, where those words begin or end a sentence
    (times in seconds from the start of the file). Words inside a sentence that run on either
    side of the stretch are slow speech the window wrote (a speaker who draws a word out), not a
    neighbour's words spread over a sentence it left out."""
    middles = _middles(stretches, words)
    found = []
    for s in stretches:
        held = np.flatnonzero((middles >= s.start_s) & (middles < s.end_s))
        sparse = s.duration_s >= MIN_GAP_S and 0 < held.size < s.duration_s * SPARSE_WORDS_PER_S
        if sparse and (_ends_sentence(words, int(held[0]) - 1) or _ends_sentence(words, int(held[-1]))):
            found.append(s)
    return found


def _ends_sentence(words: Sequence[Word], index: int) -> bool:
    """True where `words[index]` ends a sentence, or `index` lies before the first word."""
    return index < 0 or ends_sentence(words[index].word)


def _middles(stretches: Sequence[Stretch], words: Sequence[Word]) -> NDArray[np.float64]:
    return np.array([(w.start + _heard_end(w, stretches)) / 2 for w in words], dtype=np.float64)


def _empty_stretches(stretches: Sequence[Stretch], middles: NDArray[np.float64]) -> list[Stretch]:
    """`passed_over` on the words' `middles` [n_words] float64 seconds."""

    def empty(start_s: float, end_s: float) -> bool:
        return not bool(((middles >= start_s) & (middles < end_s)).any())

    joined: list[Stretch] = []
    for s in (s for s in stretches if empty(s.start_s, s.end_s)):
        last = joined[-1] if joined else None
        if last is not None and s.start_s - last.end_s < JOIN_S and empty(last.start_s, s.end_s):
            joined[-1] = Stretch(last.start_s, s.end_s)
        else:
            joined.append(s)
    return [s for s in joined if s.duration_s >= MIN_GAP_S]


def _heard_end(word: Word, stretches: Sequence[Stretch]) -> float:
    """Where `word` ends, cut at the end of the stretch it starts in (and `BRIDGE_S`): the last
    word of a segment is often timed to the segment's end, over a pause and into speech it did
    not write."""
    for s in stretches:
        if s.start_s <= word.start < s.end_s + BRIDGE_S:
            return min(word.end, s.end_s + BRIDGE_S)
    return word.end


def touching(stretch: Stretch, words: Sequence[Word]) -> int:
    """How many of `words` overlap `stretch` widened by `MARGIN_S` at each side."""
    start, end = stretch.start_s - MARGIN_S, stretch.end_s + MARGIN_S
    return sum(1 for w in words if w.end > start and w.start < end)


def count_words(segments: Sequence[Segment]) -> int:
    return sum(len(s.text.split()) for s in segments)


def first_word_starts(segments: Sequence[Segment], words: Sequence[Word]) -> list[float]:
    """Where each of `segments` starts by its first word (`words`: the window's shown segments'
    words in order, with their tokens, handed out as attach_words does); a segment that shows no
    text, or gets no word, keeps its own start."""
    kept = [s for s in segments if shown(s)]
    first = {id(s): group[0].start for s, group in zip(kept, words_per_segment(kept, words), strict=True) if group}
    return [first.get(id(s), s.start) for s in segments]


def merged(segments: Sequence[Segment], starts: Sequence[float], fills: Sequence[Segment]) -> list[Segment]:
    """`segments` (placed by `starts`, one per segment, never out of their own order) and
    `fills` in time order. A segment whose end (a word stretched over the speech it left out)
    runs into a later fill ends where that fill starts; one whose start lies before an earlier
    fill's end starts there, unless it would end there too (it would no longer be shown)."""
    keys = list(accumulate(starts, max))
    keyed = [(key, segment) for key, segment in zip(keys, segments, strict=True)]
    out = [segment for _, segment in sorted([*keyed, *((f.start, f) for f in fills)], key=lambda pair: pair[0])]
    filled = {id(s) for s in fills}
    for segment, following in pairwise(out):
        if id(following) in filled and segment.end > following.start > segment.start:
            _end_at(segment, following.start)
        elif id(segment) in filled and id(following) not in filled and following.start < segment.end < following.end:
            _start_at(following, segment.end)
    return out


def _start_at(segment: Segment, start_s: float) -> None:
    segment.start = start_s
    for word in segment.words or []:
        word.start = max(word.start, start_s)
        word.end = max(word.end, word.start)


def _end_at(segment: Segment, end_s: float) -> None:
    segment.end = end_s
    for word in segment.words or []:
        word.end = min(word.end, end_s)
        word.start = min(word.start, word.end)

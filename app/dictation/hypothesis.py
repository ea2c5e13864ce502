"""One decode of a window as the streaming policy reads it: words with absolute times, and where
Whisper's segments end (trims cut at them; a segment that starts at the first new word of a
joined window is Whisper's own sign of a break there, sentence_shape.py)."""

from __future__ import annotations

from dataclasses import dataclass

from app.dictation.guards import cut_repetitions
from app.dictation.text import HypothesisWord, split_words, timed_words
from app.engine.types import SAMPLE_RATE, WindowResult


@dataclass
class Hypothesis:
    """`words` with absolute times (s); per segment, `seg_word_end` the index one past its last
    word and `seg_end` its absolute end time (s)."""

    words: list[HypothesisWord]
    seg_word_end: list[int]
    seg_end: list[float]

    def starts_segment(self, index: int) -> bool:
        """Word `index` is the first word of one of the hypothesis' segments."""
        return index < len(self.words) and (index == 0 or index in self.seg_word_end)

    def words_before_last_segment(self, k: int, n_tail: int) -> int:
        """Words of the tail (`n_tail` words from word `k`) to commit when the window is too long:
        all but the last segment."""
        if len(self.seg_word_end) >= 2:
            return max(0, min(n_tail, self.seg_word_end[-2] - k))
        return n_tail

    def last_committed_segment(self, n_committed: int, forced: bool) -> int:
        """The last segment whose words are all among the first `n_committed` (-1: none); the
        last segment may still grow, so it counts only when `forced`."""
        last = len(self.seg_word_end) - (0 if forced else 1)
        cut_seg = -1
        for i in range(last):
            if self.seg_word_end[i] <= n_committed:
                cut_seg = i
        return cut_seg


def hypothesis_words(result: WindowResult, window_start: int, end: int, max_ngram_repeats: int) -> Hypothesis:
    """The words of `result`, a decode of the window [window_start, end) (16 kHz sample
    indices), timed in seconds of session audio (clamped to `end`): from the cross-attention
    where the decode timed words, else interpolated by character position; runs repeated more
    than `max_ngram_repeats` times are cut (guards.py)."""
    offset = window_start / SAMPLE_RATE
    limit = end / SAMPLE_RATE
    words: list[HypothesisWord] = []
    seg_word_end: list[int] = []
    seg_end: list[float] = []
    for seg in result.segments:
        start_s = min(offset + seg.start, limit)
        end_s = min(offset + seg.end, limit)
        if seg.words:  # cross-attention times (DecodeOptions.word_timestamps)
            timed = [(w.word, min(offset + w.start, limit), min(offset + w.end, limit)) for w in seg.words]
            words.extend(timed_words(seg.text, timed, start_s, end_s, [w.probability for w in seg.words]))
        else:
            words.extend(split_words(seg.text, start_s, end_s))
        seg_word_end.append(len(words))
        seg_end.append(end_s)
    kept = cut_repetitions(words, max_ngram_repeats)
    if len(kept) < len(words):
        seg_word_end = [min(i, len(kept)) for i in seg_word_end]
    return Hypothesis(kept, seg_word_end, seg_end)

"""The mark between two utterances, decided by a decode that hears the end of one and the next.

A new utterance whose window starts fresh (the pause was too long to keep the previous audio in
its window) is decoded without the sentence before it, and Whisper writes whatever comes first
as a sentence start: "We all" + a pause + "gathered to review" became "We all. Gathered to
review", the period being the one Whisper wrote after the fragment "We all" heard alone. The
pause says nothing about the sentence: speakers stop to think inside one.

Before the first words of such an utterance are committed, one decode hears the last
`PolicyOptions.bridge_s` of the previous utterance, a short silence and the new utterance's
audio so far, and the policy reads, there, the mark after the last committed word, the case of
the first new word and whether Whisper starts a segment at it: the punctuation the model writes
when it hears both, as it does in a joined window (sentence_shape.py). It decides whether the
sentence ends there; where it agrees with the mark held after the previous utterance on that,
the held mark stays ("this." is not made "this!").
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from app.dictation.decoder_port import WindowDecoder
from app.dictation.hypothesis import hypothesis_words
from app.dictation.policy_options import PolicyOptions
from app.dictation.sentence_shape import UtteranceBoundary, starts_sentence
from app.dictation.text import HypothesisWord, align_committed, split_trailing_mark
from app.engine.types import SAMPLE_RATE, CancelToken

# the silence between the two parts: a pause Whisper hears as one, not as the end of the audio
BRIDGE_GAP_S = 0.3


@dataclass(frozen=True)
class PreviousEnd:
    """The end of the previous utterance: `audio` float32 [n] at 16 kHz, the last
    `PolicyOptions.bridge_s` up to its end, from absolute sample `start`, and the committed words
    heard in it."""

    audio: NDArray[np.float32]
    start: int
    words: list[HypothesisWord]


@dataclass(frozen=True)
class Bridge:
    """What the bridge decode wrote across the boundary: `mark` after the last committed word,
    `upper` whether the word after it starts a sentence (None where the decode wrote nothing
    after it), `new_segment` whether a segment starts at it."""

    mark: str
    upper: bool | None
    new_segment: bool

    def boundary(self, pause_s: float) -> UtteranceBoundary:
        """The boundary as a joined window sees it: the decoder heard both sides."""
        return UtteranceBoundary(pause_s, joined=True, new_segment=self.new_segment)

    def cased(self, text: str) -> str:
        """`text` (with its leading space) in the bridge decode's case of its first letter."""
        stripped = text.lstrip()
        if self.upper is None or not stripped or starts_sentence(text) == self.upper:
            return text
        first = stripped[0].upper() if self.upper else stripped[0].lower()
        return text[: len(text) - len(stripped)] + first + stripped[1:]


def previous_end(audio: NDArray[np.float32], end: int, committed: list[HypothesisWord]) -> PreviousEnd:
    """`audio`, the previous utterance's last samples ending at absolute sample `end`, with the
    committed words (absolute times, s) whose middle falls inside it."""
    start = end - audio.shape[0]
    words: list[HypothesisWord] = []
    for w in reversed(committed):
        if (w.start + w.end) / 2 < start / SAMPLE_RATE:
            break
        words.insert(0, w)
    return PreviousEnd(audio, start, words)


def hear_both(
    decoder: WindowDecoder,
    previous: PreviousEnd,
    new_audio: NDArray[np.float32],
    options: PolicyOptions,
    cancel: CancelToken | None = None,
) -> Bridge | None:
    """Decode `previous.audio` + `BRIDGE_GAP_S` of silence + `new_audio` (float32 [n], 16 kHz)
    and read the boundary after the decode's repetition of `previous.words`; None where it does
    not repeat them."""
    if not previous.words:
        return None
    gap = np.zeros(int(BRIDGE_GAP_S * SAMPLE_RATE), dtype=np.float32)
    audio = np.concatenate([previous.audio, gap, new_audio])
    decode = replace(options.decode, word_timestamps=False, beam_size=1)
    result = decoder.decode_window(audio, decode, (), cancel)
    # timed as if the bridge began where the previous audio does: the committed words' times
    hyp = hypothesis_words(result, previous.start, previous.start + audio.shape[0], options.guards.max_ngram_repeats)
    k = align_committed(hyp.words, previous.words)
    if not 0 < k <= len(hyp.words) or hyp.words[k - 1].norm != previous.words[-1].norm:
        return None
    mark = split_trailing_mark(hyp.words[k - 1].text)[1]
    # the case of whatever word follows there: hearing the sentence before, Whisper can also
    # hear the next word otherwise, but whether it starts a sentence is what counts here
    upper = starts_sentence(hyp.words[k].text) if k < len(hyp.words) else None
    return Bridge(mark, upper, hyp.starts_segment(k))

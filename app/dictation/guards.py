"""Hallucination guards: decide which decoded words may reach the user at all.

Whisper invents text on silence, noise and music ("Thank you.", "[Music]", loops of one phrase).
Each guard here is cheap and reads only what the decoder already returns.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from app.dictation.text import HypothesisWord


@dataclass(frozen=True)
class GuardOptions:
    """Thresholds, as in openai/whisper where they exist.

    A window is dropped when `no_speech_prob > no_speech_threshold` and its average log-prob is
    below `logprob_threshold`, or when its compression ratio exceeds `compression_ratio_threshold`.
    `max_ngram_repeats` cuts a hypothesis where an n-gram (2 <= n <= 4) repeats more often than
    that in a row (single words may repeat once more: "words words words words" is real speech).
    `min_speech_ratio` is the share of the window the VAD must judge speech. Above
    `no_speech_alone` the no-speech probability drops a window whatever its log-prob (music
    decoded as a confident "Thank you." scores far above it; real speech far below), unless the
    VAD judged at least `vad_trusted_ratio` of the window speech (long windows of real speech can
    score high too). A very unsure window (average log-prob below `very_unsure_logprob`) is
    dropped only where the VAD judged less than `unsure_speech_ratio` of it speech: speech in
    loud noise decodes about that unsure while the VAD hears most of it as speech, and dropping
    it loses a sentence that offline transcription keeps; non-speech (noise, music) has a VAD
    share far below the ratio.
    Between `no_speech_heard` and `no_speech_alone`, the no-speech probability drops a window the
    VAD heard less than `vad_heard_ratio` of as speech: a noise recording decoded as "Thank you."
    and a cough decoded as "Come on." land in that band with a small VAD share, while windows of
    real speech (whispered, hoarse or in noise) that reach the band are mostly speech to the VAD.
    """

    no_speech_threshold: float = 0.6
    no_speech_alone: float = 0.75
    vad_trusted_ratio: float = 0.75
    no_speech_heard: float = 0.55
    vad_heard_ratio: float = 0.65
    logprob_threshold: float = -1.0
    compression_ratio_threshold: float = 2.4
    max_ngram_repeats: int = 3
    min_speech_ratio: float = 0.05
    very_unsure_logprob: float = -1.5
    unsure_speech_ratio: float = 0.5


class Verdict(enum.Enum):
    """A guard's judgement of one decoded window: keep it, or why it is dropped."""

    ACCEPT = "accept"
    NO_SPEECH = "no_speech"
    LOOPING = "looping"
    UNSURE = "unsure"


def judge_window(
    no_speech_prob: float,
    avg_logprob: float,
    compression_ratio: float,
    speech_ratio: float,
    options: GuardOptions,
) -> Verdict:
    """Classify one decoded window from the decoder's own statistics and the VAD's speech share."""
    if speech_ratio < options.min_speech_ratio:
        return Verdict.NO_SPEECH
    if no_speech_prob > options.no_speech_threshold and avg_logprob < options.logprob_threshold:
        return Verdict.NO_SPEECH
    if no_speech_prob > options.no_speech_alone and speech_ratio < options.vad_trusted_ratio:
        return Verdict.NO_SPEECH
    if no_speech_prob > options.no_speech_heard and speech_ratio < options.vad_heard_ratio:
        return Verdict.NO_SPEECH
    if compression_ratio > options.compression_ratio_threshold:
        return Verdict.LOOPING
    if avg_logprob < options.very_unsure_logprob and speech_ratio < options.unsure_speech_ratio:
        return Verdict.UNSURE
    return Verdict.ACCEPT


def cut_repetitions(words: Sequence[HypothesisWord], max_repeats: int) -> list[HypothesisWord]:
    """Drop everything after the first n-gram (n = 1..4) repeated more than allowed in a row
    (`max_repeats`, one more for single words), keeping the allowed occurrences."""
    norms = [w.norm for w in words]
    cut = len(words)
    for n in range(1, 5):
        allowed = max_repeats + (1 if n == 1 else 0)
        for i in range(0, len(norms) - n + 1):
            if i + n * (allowed + 1) > cut:
                break
            gram = norms[i : i + n]
            reps = 1
            while norms[i + reps * n : i + (reps + 1) * n] == gram:
                reps += 1
            if reps > allowed:
                cut = i + n * allowed
                break
    return list(words[:cut])

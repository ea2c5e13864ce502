"""Word timestamps for the segments of one decoded window (file transcription, both modes)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from app.engine.runtime.whisper_runtime import CrossAttention
from app.engine.timing.segment_words import WordContext, attach_words, clamp_words, token_probabilities
from app.engine.timing.word_timing import WindowWordAligner
from app.engine.types import Segment, Task

log = logging.getLogger(__name__)


def shown(segment: Segment) -> bool:
    """The transcribers' rule for segments they yield (kept in step with transcriber.py)."""
    return segment.start != segment.end and bool(segment.text.strip())


class WindowWords:
    """Adds `Segment.words` window by window; `context` carries the last speech end across them."""

    def __init__(self, aligner: WindowWordAligner, task: Task, duration_s: float) -> None:
        self.aligner, self.task = aligner, task
        self.context = WordContext(duration_s=duration_s)
        if aligner.runtime.facts.alignment_heads_source not in ("", "model"):
            log.warning("word timestamps: %s", aligner.runtime.facts.alignment_heads_source)

    def add(
        self,
        segments: Sequence[Segment],
        cross: CrossAttention,
        tokens: Sequence[int],
        token_logprobs: Sequence[float],
        language: str,
        offset_s: float,
        n_mel_frames: int,
        mel: NDArray[np.float32] | None = None,
    ) -> None:
        """`segments`: the window's (absolute times); `tokens`/`token_logprobs`: all its decoded
        tokens and their log-probabilities; `cross`: its encoder output (batch 1); `mel`: its
        log-mel [n_mels, >= n_mel_frames] from the window start (pauses, see word_refine.py)."""
        kept = [s for s in segments if shown(s)]
        text = [t for s in kept for t in s.tokens]
        if not text:
            return
        tok = self.aligner.tokenizer
        all_probs = token_probabilities(tokens, token_logprobs, lambda t: t < tok.eot)
        probs = _probs_of(kept, tokens, all_probs, tok.eot) or None
        sot = tok.sot_sequence(language, self.task)
        words = self.aligner.align(cross, sot, text, n_mel_frames, probs, language, mel)
        spans = [(s.start, s.end) for s in kept]
        attach_words(kept, words, offset_s, self.context)
        for segment, (start, end) in zip(kept, spans, strict=True):
            if not shown(segment):  # never drop a segment words-off would show: keep its own times
                segment.start, segment.end = start, end
                clamp_words(segment, segment.words or [], self.context.duration_s)


def _probs_of(kept: Sequence[Segment], tokens: Sequence[int], text_probs: list[float], eot: int) -> list[float]:
    """The probabilities of the kept segments' tokens, found in order among the window's text tokens."""
    text_tokens = [t for t in tokens if t < eot]
    if len(text_tokens) != len(text_probs):
        return []
    out: list[float] = []
    position = 0
    for segment in kept:
        for token in segment.tokens:
            while position < len(text_tokens) and text_tokens[position] != token:
                position += 1
            if position == len(text_tokens):
                return []
            out.append(text_probs[position])
            position += 1
    return out

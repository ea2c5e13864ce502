"""Decoding on its own the speech a window's text passed over (speech_gaps.py says why)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from app.engine.decoding.window_decoder import FallbackWindowDecoder, split_segments, stamp
from app.engine.runtime.features import FRAMES_PER_SECOND, HOP_LENGTH
from app.engine.runtime.whisper_runtime import CrossAttention, WhisperRuntime
from app.engine.timing.segment_words import fit_after_pause
from app.engine.timing.window_words import WindowWords, shown
from app.engine.timing.word_timing import WindowWordAligner, median_word_duration
from app.engine.transcribe.audio_stream import StreamedFeatures
from app.engine.transcribe.prompt_copy import copies_prompt
from app.engine.transcribe.speech_gaps import (
    COPIED_WORDS,
    MARGIN_S,
    MIN_FILL_LOGPROB,
    MIN_GAP_S,
    MIN_NEW_WORDS,
    Stretch,
    count_words,
    first_word_starts,
    merged,
    passed_over,
    sparse_stretches,
    sure_stretches,
    touching,
)
from app.engine.transcribe.speech_map import SPEECH_FRAME
from app.engine.types import CancelToken, Segment, Task, Word


@dataclass(frozen=True)
class DecodedWindow:
    """One decoded window of a file: mel frames [start_frame, end_frame) are what it consumed
    (the seek moved to `end_frame`); `mel` [n_mels, 3000] float32 and `cross` its input and
    encoder output, `n_frames` its real (unpadded) frames."""

    start_frame: int
    end_frame: int
    n_frames: int
    mel: NDArray[np.float32]
    cross: CrossAttention


class GapFiller:
    """Finds and decodes, window by window, the sure speech that a window's words do not cover."""

    def __init__(
        self,
        runtime: WhisperRuntime,
        decoder: FallbackWindowDecoder,
        task: Task,
        cancel: CancelToken,
        words: WindowWords | None,
    ) -> None:
        self.runtime, self.decoder, self.task, self.cancel, self.words = runtime, decoder, task, cancel, words
        self.aligner = words.aligner if words is not None else WindowWordAligner(runtime)
        # A sparse stretch is a guess (most hold slow speech the window has): one decode at the
        # first temperature, no fallback, and a result the decoder's own gates refuse is dropped.
        first = replace(decoder.options, temperatures=decoder.options.temperatures[:1])
        self.first_try = FallbackWindowDecoder(runtime, first)

    def filled(
        self,
        feats: StreamedFeatures,
        window: DecodedWindow,
        segments: list[Segment],
        language: str,
        prompt: Sequence[int],
    ) -> list[Segment]:
        """`segments` (the window's, absolute times, words attached when word times are on) with
        the segments of each passed-over stretch put among them; `prompt`: the user's initial
        prompt tokens, the only prompt a stretch is decoded with."""
        first = window.start_frame * HOP_LENGTH // SPEECH_FRAME
        last = window.end_frame * HOP_LENGTH // SPEECH_FRAME
        probabilities = feats.speech.probabilities(first * SPEECH_FRAME, last * SPEECH_FRAME)
        stretches = sure_stretches(probabilities, first)
        if not stretches or stretches[-1].end_s - stretches[0].start_s < MIN_GAP_S:
            return segments  # no stretch, joined or not, is long enough: no alignment pass
        words, starts = self._words(window, segments, language)
        fills: list[Segment] = []
        for gap in passed_over(stretches, words):
            found = self._decoded(feats, gap, window, language, prompt, self.decoder)
            if count_words(found) >= touching(gap, words) + MIN_NEW_WORDS:
                fills += found
        written = " ".join(s.text for s in segments)
        for gap in sparse_stretches(stretches, words):
            found = self._decoded(feats, gap, window, language, prompt, self.first_try)
            new = count_words(found) >= touching(gap, words) + MIN_NEW_WORDS
            if new and not copies_prompt(" ".join(s.text for s in found), written, COPIED_WORDS):
                fills += found
        return merged(segments, starts, fills) if fills else segments

    def _words(
        self, window: DecodedWindow, segments: Sequence[Segment], language: str
    ) -> tuple[list[Word], list[float]]:
        """The window's words, and where each segment's first word starts (the segment's own
        start when it shows none), in seconds from the start of the file. Without word times
        the words come from one alignment pass: a segment's timestamps can be whole seconds
        off on a long file, its words' times are not."""
        if self.words is not None:
            return [w for s in segments for w in (s.words or [])], [s.start for s in segments]
        text = [t for s in segments if shown(s) for t in s.tokens]
        sot = self.runtime.tokenizer.sot_sequence(language, self.task)
        found = self.aligner.align(window.cross, sot, text, window.n_frames, None, language, window.mel)
        offset = window.start_frame / FRAMES_PER_SECOND
        words = [Word(w.word, w.start + offset, w.end + offset, w.probability, list(w.tokens)) for w in found]
        if words:  # attach_words' rule for a segment's first word, on the window's: a long one lies at its end
            fit_after_pause(words, median_word_duration(words), offset)
        return words, first_word_starts(segments, words)

    def _decoded(
        self,
        feats: StreamedFeatures,
        gap: Stretch,
        window: DecodedWindow,
        language: str,
        prompt: Sequence[int],
        decoder: FallbackWindowDecoder,
    ) -> list[Segment]:
        """The segments of `gap` decoded alone by `decoder`, or [] when that decode is not trusted
        as speech (`first_try`: also where its own gates refuse it)."""
        first = max(window.start_frame, int((gap.start_s - MARGIN_S) * FRAMES_PER_SECOND))
        last = min(window.end_frame, math.ceil((gap.end_s + MARGIN_S) * FRAMES_PER_SECOND))
        mel = feats.window(first, last - first)
        cross = self.runtime.encode(mel[None])
        result = decoder.decode(cross, decoder.build_prompt(language, list(prompt)), self.cancel)
        if decoder is not self.decoder:  # the file's token count holds every decode's tokens
            self.decoder.n_tokens, decoder.n_tokens = self.decoder.n_tokens + decoder.n_tokens, 0
        outcome = result.outcome
        if (
            decoder.is_silence(result)
            or (decoder is self.first_try and not decoder.accepts(result))
            or outcome.avg_logprob < MIN_FILL_LOGPROB
            or feats.speech.rejects(first * HOP_LENGTH, last * HOP_LENGTH, outcome.no_speech_prob, outcome.avg_logprob)
        ):
            return []
        offset = first / FRAMES_PER_SECOND
        found, _ = split_segments(
            outcome.tokens, self.runtime.tokenizer, offset, (last - first) / FRAMES_PER_SECOND, keep_tail=True
        )
        found = [s for s in found if shown(s)]
        for segment in found:
            stamp(segment, result)
        if self.words is not None and found:
            # The fill lies before the window's last speech: the next window's words follow that.
            speech_end = self.words.context.last_speech_end
            self.words.add(found, cross, outcome.tokens, outcome.token_logprobs, language, offset, last - first, mel)
            self.words.context.last_speech_end = speech_end
        return found

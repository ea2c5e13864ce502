"""Long audio: the sequential 30 s window algorithm that seeks to the last timestamp.

Each window starts where the previous one's last complete segment ended, so no word is lost
or doubled at window joins. Log-mel is computed once over the whole file (as faster-whisper).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from app.engine.features import FRAMES_PER_SECOND, N_FRAMES_WINDOW, log_mel
from app.engine.runtime import CrossAttention, WhisperRuntime
from app.engine.types import (
    SAMPLE_RATE,
    CancelToken,
    DecodeOptions,
    Segment,
    Timings,
    TranscriptionInfo,
)
from app.engine.window_decoder import WindowDecoder, consumed_tokens, mel_window, split_segments, stamp
from app.engine.window_words import WindowWords
from app.engine.word_timing import WindowWordAligner

ProgressCallback = Callable[[float, float], None]
"""Called with (seconds of audio done, total seconds)."""


@dataclass
class _State:
    seek: int = 0  # mel frame where the next window starts
    all_tokens: list[int] = field(default_factory=list)
    prompt_reset_since: int = 0
    next_id: int = 1


class FileTranscriber:
    """Transcribes a whole audio array, yielding segments as each window is decoded."""

    def __init__(self, runtime: WhisperRuntime, options: DecodeOptions, cancel: CancelToken | None = None,
                 on_progress: ProgressCallback | None = None) -> None:
        self.runtime, self.options = runtime, options
        self.cancel = cancel or CancelToken()
        self.on_progress = on_progress
        self.decoder = WindowDecoder(runtime, options)
        self.words: WindowWords | None = None  # set per file when options.word_timestamps

    def transcribe(self, audio: NDArray[np.float32]) -> tuple[Iterator[Segment], TranscriptionInfo]:
        start = time.perf_counter()
        timings = Timings()
        mel = log_mel(audio, self.runtime.facts.dims.n_mels)
        timings.features_s = time.perf_counter() - start
        info = TranscriptionInfo("en", 1.0, len(audio) / SAMPLE_RATE, timings)
        language = self.options.language
        first_window: CrossAttention | None = None
        if self.runtime.facts.multilingual and language is None and mel.shape[-1] > 0:
            t0 = time.perf_counter()
            first_window = self.runtime.encode(mel_window(mel, 0, N_FRAMES_WINDOW))
            timings.encoder_s += time.perf_counter() - t0  # the first window's encoding, reused below
            language, info.language_probability = self.decoder.detect_language(first_window)
        info.language = language or "en"
        if self.options.word_timestamps:
            self.words = WindowWords(WindowWordAligner(self.runtime), self.options.task, info.duration_s)
        return self._segments(mel, info, start, first_window), info

    def _segments(self, mel: NDArray[np.float32], info: TranscriptionInfo, start: float,
                  first_window: CrossAttention | None) -> Iterator[Segment]:
        """`first_window`: the encoder output of the window at 0, if language detection made it."""
        state, timings = _State(), info.timings
        content = mel.shape[-1]
        prev_prompt = self.runtime.tokenizer.encode(" " + self.options.initial_prompt.strip()) \
            if self.options.initial_prompt else []
        while state.seek < content:
            self.cancel.raise_if_cancelled()
            size = min(N_FRAMES_WINDOW, content - state.seek)
            t0 = time.perf_counter()
            if state.seek == 0 and first_window is not None:
                cross = first_window  # the same padded window: do not encode it twice
            else:
                cross = self.runtime.encode(mel_window(mel, state.seek, size))
            t1 = time.perf_counter()
            previous = prev_prompt + state.all_tokens[state.prompt_reset_since:]
            prompt = self.decoder.build_prompt(info.language, previous)
            result = self.decoder.decode(cross, prompt, self.cancel)
            timings.encoder_s += t1 - t0
            timings.decoder_s += time.perf_counter() - t1
            timings.n_windows += 1
            offset, previous_seek = state.seek / FRAMES_PER_SECOND, state.seek
            if self.decoder.is_silence(result):
                state.seek += size
            else:
                segments, resume = split_segments(result.outcome.tokens, self.runtime.tokenizer, offset,
                                                  size / FRAMES_PER_SECOND)
                state.seek += size if resume is None else round(resume * FRAMES_PER_SECOND)
                # The next prompt keeps the timestamps, as openai/whisper and faster-whisper do:
                # prompted with text alone, tiny.en went on without timestamps and skipped 30 s.
                state.all_tokens.extend(consumed_tokens(result.outcome.tokens, self.runtime.tokenizer, resume))
                if self.words is not None:
                    self.words.add(segments, cross, result.outcome.tokens, result.outcome.token_logprobs,
                                   info.language, offset, size, mel[:, previous_seek : previous_seek + size])
                for seg in segments:
                    if seg.start == seg.end or not seg.text.strip():
                        continue
                    seg.id, state.next_id = state.next_id, state.next_id + 1
                    stamp(seg, result)
                    yield seg
            if not self.options.condition_on_previous_text or result.temperature > 0.5:
                state.prompt_reset_since = len(state.all_tokens)
            timings.n_tokens = self.decoder.n_tokens
            timings.total_s = time.perf_counter() - start
            if self.on_progress:
                self.on_progress(min(content, max(state.seek, previous_seek)) / FRAMES_PER_SECOND,
                                 content / FRAMES_PER_SECOND)

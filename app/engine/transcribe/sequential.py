"""Long audio: the sequential 30 s window algorithm that seeks to the last timestamp.

Each window starts where the previous one's last complete segment ended, so no word is lost
or doubled at window joins. Audio arrives as chunks and is featurised 30 s at a time
(`audio_stream.py`), so memory does not grow with the file's length. A window without speech
in the speech map is not decoded: the seek jumps to 1 s before the next speech.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from app.engine.decoding.window_decoder import (
    FallbackWindowDecoder,
    WindowDecode,
    consumed_tokens,
    split_segments,
    stamp,
)
from app.engine.runtime.features import FRAMES_PER_SECOND, HOP_LENGTH
from app.engine.runtime.whisper_runtime import CrossAttention, WhisperRuntime
from app.engine.timing.time_clamp import clamp_in_place
from app.engine.timing.window_words import WindowWords
from app.engine.timing.word_timing import WindowWordAligner
from app.engine.transcribe.audio_stream import StreamedFeatures
from app.engine.transcribe.gap_fill import DecodedWindow, GapFiller
from app.engine.transcribe.prompt_copy import (
    COPIED_RUN_WORDS,
    FILE_COPIED_RUN_WORDS,
    FILE_COPY_OPENING_WORDS,
    copies_prompt,
)
from app.engine.transcribe.speech_map import SPEECH_PAD_FRAMES, SpeechDetector, SpeechMap
from app.engine.types import (
    SAMPLE_RATE,
    CancelToken,
    DecodeOptions,
    Segment,
    Timings,
    TranscriptionInfo,
)

ProgressCallback = Callable[[float, float], None]
"""Called with (seconds of audio done, total seconds)."""


@dataclass
class _State:
    seek: int = 0  # mel frame where the next window starts
    all_tokens: list[int] = field(default_factory=list)
    prompt_reset_since: int = 0
    next_id: int = 1


class FileTranscriber:
    """Transcribes a stream of audio chunks, yielding segments as each window is decoded."""

    def __init__(
        self,
        runtime: WhisperRuntime,
        options: DecodeOptions,
        cancel: CancelToken | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> None:
        self.runtime, self.options = runtime, options
        self.cancel = cancel or CancelToken()
        self.on_progress = on_progress
        self.decoder = FallbackWindowDecoder(runtime, options)
        self.words: WindowWords | None = None  # set per file when options.word_timestamps
        self.gaps: GapFiller | None = None  # set per file with a speech detector

    def transcribe(
        self,
        chunks: Iterable[NDArray[np.float32]],
        duration_s: float | None = None,
        detector: SpeechDetector | None = None,
    ) -> tuple[Iterator[Segment], TranscriptionInfo]:
        """`chunks`: the audio, [n] float32 16 kHz each, in order; `duration_s`: its expected
        length (for progress; `info.duration_s` is the decoded length once iterated)."""
        start = time.perf_counter()
        feats = StreamedFeatures(chunks, self.runtime.facts.dims.n_mels, SpeechMap(detector))
        info = TranscriptionInfo("en", 1.0, duration_s or 0.0, Timings())
        language = self.options.language
        first_window: CrossAttention | None = None
        if self.runtime.facts.multilingual and language is None:
            n_frames = feats.frames_at(0)
            if n_frames:
                t0 = time.perf_counter()
                first_window = self.runtime.encode(feats.window(0, n_frames)[None])
                info.timings.encoder_s += time.perf_counter() - t0  # the first window's encoding, reused below
                language, info.language_probability = self.decoder.detect_language(first_window)
        info.language = language or "en"
        if self.options.word_timestamps:
            self.words = WindowWords(WindowWordAligner(self.runtime), self.options.task, duration_s or float("inf"))
        if detector is not None and self.options.fill_speech_gaps:
            self.gaps = GapFiller(self.runtime, self.decoder, self.options.task, self.cancel, self.words)
        return self._segments(feats, info, start, first_window), info

    def _report(self, feats: StreamedFeatures, info: TranscriptionInfo, done_frames: int) -> None:
        """Progress in seconds; the total is the expected duration until the stream has ended."""
        info.timings.features_s = feats.features_s
        if feats.n_frames is not None:
            info.duration_s = feats.n_samples / SAMPLE_RATE
            total = feats.n_frames / FRAMES_PER_SECOND
        else:
            total = max(info.duration_s, feats.n_samples / SAMPLE_RATE)
        if self.on_progress:
            self.on_progress(min(total, done_frames / FRAMES_PER_SECOND), total)

    def _skip_silence(self, feats: StreamedFeatures, seek: int, size: int) -> int:
        """The window at `seek` has no speech: where the next window starts."""
        speech = feats.next_speech_frame(seek + size)
        end = feats.n_frames
        if speech is None:
            assert end is not None
            return end
        return max(seek + 1, speech - SPEECH_PAD_FRAMES)

    def _segments(
        self, feats: StreamedFeatures, info: TranscriptionInfo, start: float, first_window: CrossAttention | None
    ) -> Iterator[Segment]:
        """`first_window`: the encoder output of the window at 0, if language detection made it."""
        state = _State()
        prev_prompt = (
            self.runtime.tokenizer.encode(" " + self.options.initial_prompt.strip())
            if self.options.initial_prompt
            else []
        )
        while size := feats.frames_at(state.seek):
            self.cancel.raise_if_cancelled()
            feats.release_before(state.seek)
            span = (state.seek * HOP_LENGTH, (state.seek + size) * HOP_LENGTH)
            if not feats.speech.has_speech(*span):
                state.seek = self._skip_silence(feats, state.seek, size)
                self._report(feats, info, state.seek)
                continue
            previous_seek = state.seek
            window, cross, result = self._decode_window(feats, state, size, prev_prompt, info, first_window)
            rejected = feats.speech.rejects(*span, result.outcome.no_speech_prob, result.outcome.avg_logprob)
            segments = self._advance(state, result, size, rejected)
            decoded = DecodedWindow(previous_seek, state.seek, size, window, cross)
            yield from self._shown(state, self._completed(feats, decoded, result, segments, info, prev_prompt))
            if not self.options.condition_on_previous_text or result.temperature > 0.5:
                state.prompt_reset_since = len(state.all_tokens)
            info.timings.n_tokens = self.decoder.n_tokens
            info.timings.total_s = time.perf_counter() - start
            self._report(feats, info, max(state.seek, previous_seek))
        self._report(feats, info, state.seek)

    def _decode_window(
        self,
        feats: StreamedFeatures,
        state: _State,
        size: int,
        prev_prompt: list[int],
        info: TranscriptionInfo,
        first_window: CrossAttention | None,
    ) -> tuple[NDArray[np.float32], CrossAttention, WindowDecode]:
        """The window of `size` mel frames at `state.seek`: its log-mel [n_mels, 3000] float32,
        its encoder output and its decode (timed into `info.timings`)."""
        t0 = time.perf_counter()
        window = feats.window(state.seek, size)
        # At 0 the language detection already encoded the same padded window: not twice.
        cross = first_window if state.seek == 0 and first_window is not None else self.runtime.encode(window[None])
        t1 = time.perf_counter()
        result = self._decode(cross, state, prev_prompt, info.language)
        info.timings.encoder_s += t1 - t0
        info.timings.decoder_s += time.perf_counter() - t1
        info.timings.n_windows += 1
        return window, cross, result

    def _completed(
        self,
        feats: StreamedFeatures,
        decoded: DecodedWindow,
        result: WindowDecode,
        segments: list[Segment],
        info: TranscriptionInfo,
        prev_prompt: list[int],
    ) -> list[Segment]:
        """The window's segments kept inside the stream's real end, with their words (when asked)
        and decoding stamps, and the speech the window passed over decoded among them."""
        if feats.n_frames is not None:  # the stream has ended: no time past its real end
            clamp_in_place(segments, feats.n_samples / SAMPLE_RATE)
        if self.words is not None and segments:
            if feats.n_frames is not None:  # the stream has ended: clamp words to its real length
                self.words.context.duration_s = feats.n_samples / SAMPLE_RATE
            outcome = result.outcome
            self.words.add(
                segments,
                decoded.cross,
                outcome.tokens,
                outcome.token_logprobs,
                info.language,
                decoded.start_frame / FRAMES_PER_SECOND,
                decoded.n_frames,
                decoded.mel,
            )
        for seg in segments:
            stamp(seg, result)
        if self.gaps is not None and segments:
            t0 = time.perf_counter()
            segments = self.gaps.filled(feats, decoded, segments, info.language, prev_prompt)
            info.timings.decoder_s += time.perf_counter() - t0
        return segments

    def _decode(self, cross: CrossAttention, state: _State, initial: list[int], language: str) -> WindowDecode:
        """Decode the window conditioned on the text before it (after the `initial` prompt's
        tokens); one that copies a run of that text is decoded again without it, and the prompt
        starts afresh after this window (prompt_copy.py says why)."""
        conditioned = state.all_tokens[state.prompt_reset_since :]
        result = self.decoder.decode(cross, self.decoder.build_prompt(language, initial + conditioned), self.cancel)
        said = self.runtime.tokenizer.decode(conditioned) if conditioned else ""
        if said and (
            copies_prompt(result.text, said, COPIED_RUN_WORDS)
            or copies_prompt(result.text, said, FILE_COPIED_RUN_WORDS, FILE_COPY_OPENING_WORDS)
        ):
            result = self.decoder.decode(cross, self.decoder.build_prompt(language, initial), self.cancel)
            state.prompt_reset_since = len(state.all_tokens)
        return result

    def _advance(self, state: _State, result: WindowDecode, size: int, rejected: bool) -> list[Segment]:
        """Move the seek past the decoded window and return its complete segments."""
        offset = state.seek / FRAMES_PER_SECOND
        if rejected or self.decoder.is_silence(result):
            state.seek += size
            return []
        segments, resume = split_segments(
            result.outcome.tokens, self.runtime.tokenizer, offset, size / FRAMES_PER_SECOND
        )
        state.seek += size if resume is None else round(resume * FRAMES_PER_SECOND)
        # The next prompt keeps the timestamps, as openai/whisper and faster-whisper do:
        # prompted with text alone, tiny.en goes on without timestamps and skips a whole window.
        state.all_tokens.extend(consumed_tokens(result.outcome.tokens, self.runtime.tokenizer, resume))
        return segments

    @staticmethod
    def _shown(state: _State, segments: list[Segment]) -> Iterator[Segment]:
        """The segments a user sees (not empty, not zero-length), numbered."""
        for seg in segments:
            if seg.start == seg.end or not seg.text.strip():
                continue
            seg.id, state.next_id = state.next_id, state.next_id + 1
            yield seg

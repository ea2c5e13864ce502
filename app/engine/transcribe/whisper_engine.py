"""`WhisperEngine`: the engine's public face for the CLI, live dictation and the app."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from app.engine.decoding.phrase_scores import phrase_scores
from app.engine.decoding.window_decoder import FallbackWindowDecoder, mel_window, split_segments, stamp
from app.engine.runtime.features import FRAMES_PER_SECOND, N_FRAMES_WINDOW, log_mel
from app.engine.runtime.ort_sessions import SessionConfig
from app.engine.runtime.whisper_runtime import CrossAttention, WhisperRuntime
from app.engine.timing.window_words import WindowWords
from app.engine.timing.word_timing import WindowWordAligner
from app.engine.tokenizer import WhisperTokenizer
from app.engine.transcribe.batched import BatchedTranscriber
from app.engine.transcribe.sequential import FileTranscriber, ProgressCallback
from app.engine.transcribe.speech_map import SpeechDetector
from app.engine.types import (
    N_SAMPLES_WINDOW,
    SAMPLE_RATE,
    CancelToken,
    DecodeOptions,
    PhraseFit,
    Precision,
    Segment,
    Task,
    TranscriptionInfo,
    WindowResult,
    Word,
)


class WhisperEngine:
    """A loaded model. Thread-compatible: use one engine from one worker thread at a time."""

    def __init__(self, runtime: WhisperRuntime, name: str, precision: Precision, load_s: float = 0.0) -> None:
        self.runtime = runtime
        self.name = name
        self.precision = precision
        self.load_s = load_s
        self._aligner: WindowWordAligner | None = None

    @property
    def provider(self) -> str:
        return self.runtime.provider

    @property
    def fallback_reason(self) -> str | None:
        return self.runtime.fallback_reason

    @property
    def tokenizer(self) -> WhisperTokenizer:
        return self.runtime.tokenizer

    @property
    def is_multilingual(self) -> bool:
        return self.runtime.facts.multilingual

    def transcribe(
        self,
        audio: NDArray[np.float32] | Iterable[NDArray[np.float32]],
        options: DecodeOptions,
        cancel: CancelToken | None = None,
        on_progress: ProgressCallback | None = None,
        *,
        duration_s: float | None = None,
        speech: SpeechDetector | None = None,
    ) -> tuple[Iterator[Segment], TranscriptionInfo]:
        """Audio of any length -> lazily decoded segments and info.

        `audio`: one array [n_samples] float32 16 kHz, or an iterable of such chunks (a file
        decoded as it is read: memory stays flat however long it is). `duration_s`: the
        expected length, for progress, when chunks are given. `speech`: a detector (the app's
        Silero VAD) whose map lets windows without speech go undecoded and drops the text of
        windows it and Whisper both doubt; without it only digital silence is skipped.
        """
        if isinstance(audio, np.ndarray):
            audio, duration_s = [np.asarray(audio, dtype=np.float32)], len(audio) / SAMPLE_RATE
        kind = BatchedTranscriber if options.batch_size > 1 else FileTranscriber
        return kind(self.runtime, options, cancel, on_progress).transcribe(audio, duration_s, speech)

    def decode_window(
        self,
        audio: NDArray[np.float32],
        options: DecodeOptions,
        prompt_tokens: Sequence[int] = (),
        cancel: CancelToken | None = None,
    ) -> WindowResult:
        """Decode up to 30 s of audio [n_samples] float32 16 kHz as one window (padded to 30 s).

        `prompt_tokens` are previous-text tokens (no specials). Segment times are relative to
        the start of `audio`. With `options.word_timestamps` the segments carry `words` too (one
        teacher-forced pass of the decoder, its attention fetched, on this window's encoder output).
        """
        audio, mel, n_frames, cross = self._encoded(audio)
        decoder = FallbackWindowDecoder(self.runtime, options)
        language, language_prob = options.language or "en", 1.0
        if self.is_multilingual and options.language is None:
            language, language_prob = decoder.detect_language(cross)
        result = decoder.decode(cross, decoder.build_prompt(language, list(prompt_tokens)), cancel)
        segments, _ = split_segments(result.outcome.tokens, self.tokenizer, 0.0, n_frames / FRAMES_PER_SECOND)
        for i, seg in enumerate(segments, start=1):
            seg.id = i
            stamp(seg, result)
        if options.word_timestamps and segments:
            words = WindowWords(self._word_aligner(), options.task, audio.shape[0] / SAMPLE_RATE)
            words.add(
                segments, cross, result.outcome.tokens, result.outcome.token_logprobs, language, 0.0, n_frames, mel
            )
        return WindowResult(
            tokens=result.outcome.tokens,
            text=result.text,
            segments=segments,
            language=language,
            language_probability=language_prob,
            avg_logprob=result.outcome.avg_logprob,
            no_speech_prob=result.outcome.no_speech_prob,
            compression_ratio=result.compression_ratio,
            temperature=result.temperature,
        )

    def word_timings(
        self, audio: NDArray[np.float32], text_tokens: Sequence[int], language: str = "en", task: Task = Task.TRANSCRIBE
    ) -> list[Word]:
        """Words of `text_tokens` (text tokens of up to 30 s of audio [n_samples] float32 16 kHz,
        decoded before) with times in seconds from the start of `audio`. Encodes the window
        again; callers that hold its `CrossAttention` use `WindowWordAligner.align` directly."""
        _, mel, n_frames, cross = self._encoded(audio)
        sot = self.tokenizer.sot_sequence(language if self.is_multilingual else None, task)
        return self._word_aligner().align(cross, sot, text_tokens, n_frames, language=language, mel=mel)

    def score_phrases(self, audio: NDArray[np.float32], phrases: Sequence[str]) -> list[PhraseFit]:
        """How well each phrase fits up to 30 s of audio [n_samples] float32 16 kHz, forced
        through the decoder (English)."""
        return phrase_scores(self.runtime, self._encoded(audio)[3], phrases)

    def words_after(self, audio: NDArray[np.float32], prefix: str) -> str:
        """The text the decoder writes for up to 30 s of audio [n_samples] float32 16 kHz once it
        is made to start with `prefix` (greedy, English, no timestamps): the text after it, with
        its leading space (" London" after "Cap" where "cap london" was said)."""
        decoder = FallbackWindowDecoder(
            self.runtime,
            DecodeOptions(language="en", beam_size=1, temperatures=(0.0,), without_timestamps=True, max_new_tokens=32),
        )
        language = "en" if self.is_multilingual else None
        result = decoder.decode(self._encoded(audio)[3], decoder.build_prompt(language, [], prefix=prefix), None)
        return self.tokenizer.decode(result.outcome.tokens)

    def _encoded(
        self, audio: NDArray[np.float32]
    ) -> tuple[NDArray[np.float32], NDArray[np.float32], int, CrossAttention]:
        """Up to 30 s of `audio` [n_samples] float32 16 kHz as one window: (the samples used, their
        log-mel [n_mels, frames] float32, the frames in the window, the encoder's output)."""
        audio = np.asarray(audio[:N_SAMPLES_WINDOW], dtype=np.float32)
        mel = log_mel(audio, self.runtime.facts.dims.n_mels)
        n_frames = min(mel.shape[-1], N_FRAMES_WINDOW)
        return audio, mel, n_frames, self.runtime.encode(mel_window(mel, 0, n_frames))

    def _word_aligner(self) -> WindowWordAligner:
        if self._aligner is None:
            self._aligner = WindowWordAligner(self.runtime)
        return self._aligner


def engine_from_folder(folder: Path, name: str, precision: Precision) -> WhisperEngine:
    """An engine on the converted graphs in `folder`, on the CPU with the default threads."""
    return WhisperEngine(WhisperRuntime(folder, SessionConfig("cpu", 0)), name, precision)

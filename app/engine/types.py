"""Plain data types shared by the engine and its callers (no onnxruntime, no Qt).

Units: times are seconds (float) from the start of the audio handed to the engine;
audio is mono float32 at 16 kHz (`SAMPLE_RATE`).
"""

from __future__ import annotations

import enum
import threading
from dataclasses import dataclass, field

SAMPLE_RATE = 16_000
"""Whisper's input rate, samples per second."""
N_SAMPLES_WINDOW = 30 * SAMPLE_RATE
"""Samples in one 30 s encoder window."""


class Task(enum.Enum):
    TRANSCRIBE = "transcribe"
    TRANSLATE = "translate"


class Precision(enum.Enum):
    """Weight/compute precision of the converted ONNX graphs."""

    AUTO = "auto"
    FP32 = "fp32"
    FP16 = "fp16"
    INT8 = "int8"
    INT8_ACCURATE = "int8-accurate"
    INT4 = "int4"

    @property
    def quantized(self) -> bool:
        """Graphs derived from the fp32 ones by weight quantization (see convert/quantize.py)."""
        return self in (Precision.INT8, Precision.INT8_ACCURATE, Precision.INT4)


class CancelledError(Exception):
    """Raised inside the engine when a `CancelToken` is set."""


class CancelToken:
    """A thread-safe flag checked by the decoding loop at every step."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def raise_if_cancelled(self) -> None:
        if self._event.is_set():
            raise CancelledError("cancelled")


@dataclass(frozen=True)
class DecodeOptions:
    """How to decode audio. Defaults follow openai/whisper's `transcribe`.

    `beam_size` 1 means greedy. `temperatures` are tried in order while a window fails the
    compression-ratio or log-prob thresholds. `max_new_tokens` caps one window (224, as
    CTranslate2 does, guards against runaway loops).
    """

    task: Task = Task.TRANSCRIBE
    language: str | None = None
    beam_size: int = 5
    patience: float = 1.0
    best_of: int = 5
    length_penalty: float | None = None
    temperatures: tuple[float, ...] = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
    without_timestamps: bool = False
    initial_prompt: str | None = None
    condition_on_previous_text: bool = True
    compression_ratio_threshold: float | None = 2.4
    log_prob_threshold: float | None = -1.0
    no_speech_threshold: float | None = 0.6
    max_new_tokens: int = 224
    max_initial_timestamp: float = 1.0
    suppress_blank: bool = True
    word_timestamps: bool = False
    """Time every word (`Segment.words`) from the decoder's cross-attention; the text is the same."""
    batch_size: int = 1
    """> 1: long audio is cut into 30 s windows at quiet moments and `batch_size` windows are
    decoded at once, greedily and without the previous window's text (see `batched.py`)."""


@dataclass
class Word:
    """One word of a segment: `word` as written in the text (with its leading space and any
    punctuation), `start`/`end` in seconds, `probability` in [0, 1] (mean over its tokens),
    `tokens` its text tokens."""

    word: str
    start: float
    end: float
    probability: float
    tokens: list[int] = field(default_factory=list)


@dataclass
class Segment:
    """A transcribed span of audio. `tokens` are text tokens only (no specials)."""

    id: int
    start: float
    end: float
    text: str
    tokens: list[int] = field(default_factory=list)
    avg_logprob: float = 0.0
    no_speech_prob: float = 0.0
    temperature: float = 0.0
    compression_ratio: float = 0.0
    words: list[Word] | None = None
    """With `DecodeOptions.word_timestamps`: the segment's words, in order, inside [start, end]."""


@dataclass
class WindowResult:
    """The outcome of decoding one (<= 30 s) window of audio.

    `segments` carry times relative to the window start. `tokens` are all sampled tokens
    (text and timestamps, no SOT sequence, no end-of-text).
    """

    tokens: list[int]
    text: str
    segments: list[Segment]
    language: str
    language_probability: float
    avg_logprob: float
    no_speech_prob: float
    compression_ratio: float
    temperature: float
    n_encoder_runs: int = 1

    @property
    def is_silent(self) -> bool:
        """True when the no-speech probability alone would drop this window."""
        return self.no_speech_prob > 0.6 and self.avg_logprob < -1.0


@dataclass
class Timings:
    """Wall time in seconds spent in each stage of a transcription."""

    load_s: float = 0.0
    decode_audio_s: float = 0.0
    features_s: float = 0.0
    encoder_s: float = 0.0
    decoder_s: float = 0.0
    total_s: float = 0.0
    n_tokens: int = 0
    n_windows: int = 0


@dataclass
class TranscriptionInfo:
    language: str
    language_probability: float
    duration_s: float
    timings: Timings = field(default_factory=Timings)

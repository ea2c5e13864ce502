"""Plain data types shared by the engine and its callers (no onnxruntime, no Qt).

Units: times are seconds (float) from the start of the audio handed to the engine;
audio is mono float32 at 16 kHz (`SAMPLE_RATE`).
"""

from __future__ import annotations

import enum
import math
import threading
from dataclasses import dataclass, field

SAMPLE_RATE = 16_000
"""Whisper's input rate, samples per second."""
MAX_BEAM_SIZE = 16
"""The largest beam (and best-of count) accepted: memory grows with it (beam 1000 took 3 GB
for a 3 s clip); the settings dialog offers 1..16 too."""
MAX_NEW_TOKENS = 448
"""Whisper's text context: no window can hold more tokens."""
MAX_VOCABULARY_BOOST = 10.0
"""The largest bonus (logits) for the user's words: beyond it they replace what was said."""
DEFAULT_VOCABULARY_BOOST = 4.0
"""The bonus that doubles listed words' recall without writing them where they were not said
(bench/vocabulary.py, docs/vocabulary.md)."""
N_SAMPLES_WINDOW = 30 * SAMPLE_RATE
"""Samples in one 30 s encoder window."""


class Task(enum.Enum):
    """Whisper's task: write down what is said, or translate it into English."""

    TRANSCRIBE = "transcribe"
    TRANSLATE = "translate"


class Precision(enum.Enum):
    """Weight/compute precision of the converted ONNX graphs."""

    AUTO = "auto"
    FP32 = "fp32"
    FP16 = "fp16"
    INT8 = "int8"
    INT8_ACCURATE = "int8-accurate"
    INT8_SMALL = "int8-small"
    INT4 = "int4"

    @property
    def quantized(self) -> bool:
        """Graphs derived from the fp32 ones by weight quantization (see convert/quantize.py)."""
        return self in (Precision.INT8, Precision.INT8_ACCURATE, Precision.INT8_SMALL, Precision.INT4)


class DecodeOptionsError(ValueError):
    """A `DecodeOptions` field is out of range. `str(error)` is one line naming the field."""


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
    Every field is checked on construction (`DecodeOptionsError`): `beam_size` and `best_of`
    1..`MAX_BEAM_SIZE`, `patience` in (0, 16], temperatures in [0, 2], `max_new_tokens`
    1..448, `batch_size` 1..64. `language` is checked against the model by its user (the CLI).
    Between fields (openai/whisper's `_verify_options`): a `patience` other than 1 needs a beam
    (`beam_size` > 1). `beam_size` and `best_of` may both be given, unlike openai/whisper's:
    as in faster-whisper, the beam decodes at temperature 0 and `best_of` samples at each
    fallback temperature above 0.
    """

    # What to produce: the task, the spoken language (None = detect).
    task: Task = Task.TRANSCRIBE
    language: str | None = None
    # The search: beam at temperature 0, `best_of` samples at the fallback temperatures.
    beam_size: int = 5
    patience: float = 1.0
    best_of: int = 5
    length_penalty: float | None = None
    temperatures: tuple[float, ...] = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
    # The prompt: timestamps, the user's words, the previous window's text.
    without_timestamps: bool = False
    initial_prompt: str | None = None
    condition_on_previous_text: bool = True
    vocabulary: tuple[str, ...] = ()
    """The user's words (names, terms) that the decoder favours by `vocabulary_boost` logits
    (0 = off; `app/engine/decoding/vocabulary_boost.py`)."""
    vocabulary_boost: float = DEFAULT_VOCABULARY_BOOST
    # When a window's result is refused (retried hotter) or dropped as silence.
    compression_ratio_threshold: float | None = 2.4
    log_prob_threshold: float | None = -1.0
    no_speech_threshold: float | None = 0.6
    # Limits on one window's tokens.
    max_new_tokens: int = 224
    max_initial_timestamp: float = 1.0
    suppress_blank: bool = True
    # Extras: passed-over speech, word times and batched long audio.
    fill_speech_gaps: bool = True
    """With a speech detector: sure speech that no word of a window's text covers is decoded on
    its own (`app/engine/transcribe/speech_gaps.py`)."""
    word_timestamps: bool = False
    """Time every word (`Segment.words`) from the decoder's cross-attention; the text is the same."""
    batch_size: int = 1
    """> 1: long audio is cut into 30 s windows at quiet moments and `batch_size` windows are
    decoded at once, greedily and without the previous window's text (see `batched.py`)."""

    def __post_init__(self) -> None:
        """Raise `DecodeOptionsError` for any field out of range (one line, naming the field)."""
        _check_int("beam_size", self.beam_size, 1, MAX_BEAM_SIZE)
        _check_int("best_of", self.best_of, 1, MAX_BEAM_SIZE)
        _check_int("max_new_tokens", self.max_new_tokens, 1, MAX_NEW_TOKENS)
        _check_int("batch_size", self.batch_size, 1, 64)
        _check_float("patience", self.patience, 0.0, 16.0, low_open=True)
        _check_float("max_initial_timestamp", self.max_initial_timestamp, 0.0, 30.0)
        _check_float("vocabulary_boost", self.vocabulary_boost, 0.0, MAX_VOCABULARY_BOOST)
        if self.length_penalty is not None:
            _check_float("length_penalty", self.length_penalty, 0.0, 2.0)
        if not self.temperatures:
            raise DecodeOptionsError("temperatures must hold at least one value")
        for value in self.temperatures:
            _check_float("temperatures", value, 0.0, 2.0)
        if self.compression_ratio_threshold is not None:
            _check_float("compression_ratio_threshold", self.compression_ratio_threshold, 0.0, 1e9, low_open=True)
        if self.no_speech_threshold is not None:
            _check_float("no_speech_threshold", self.no_speech_threshold, 0.0, 1.0)
        if self.log_prob_threshold is not None and not math.isfinite(self.log_prob_threshold):
            raise DecodeOptionsError(f"log_prob_threshold must be a finite number, got {self.log_prob_threshold!r}")
        if self.patience != 1.0 and self.beam_size == 1:
            raise DecodeOptionsError(f"patience {self.patience} needs a beam: set beam_size above 1")


def _check_int(name: str, value: int, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise DecodeOptionsError(f"{name} must be a whole number from {low} to {high}, got {value!r}")


def _check_float(name: str, value: float, low: float, high: float, low_open: bool = False) -> None:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if not ok or not (low < value if low_open else low <= value) or value > high:
        bound = f"above {low}" if low_open else f"from {low}"
        raise DecodeOptionsError(f"{name} must be a number {bound} to {high}, got {value!r}")


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


@dataclass(frozen=True)
class PhraseFit:
    """How well a phrase fits a stretch of audio, forced through the decoder: `mean` is the mean
    log-probability of its `tokens` tokens (0 is best)."""

    mean: float
    tokens: int

    @property
    def weighed(self) -> float:
        """The sum of the log-probabilities over the square root of the tokens: comparable across
        phrases of different lengths, where the mean flatters long ones (their later tokens are
        nearly certain once they have begun)."""
        return self.mean * math.sqrt(self.tokens)


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
    """About a whole transcription: the language (and its probability), the audio's length in
    seconds, and the time each stage took."""

    language: str
    language_probability: float
    duration_s: float
    timings: Timings = field(default_factory=Timings)

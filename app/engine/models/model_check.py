"""Is an imported model sound? Its weights are finite, and it transcribes a known clip.

A `model.bin` with a few KB of flipped bytes still reads (its header and sizes are intact) and
transcribes as "esaesaesa...". Two checks catch that at import time:

- every floating tensor is finite (flipped exponent bits give inf and NaN; one numpy pass over
  the weights, cheap next to the decode);
- a smoke decode: the shipped self-test clip (`resources/selftest.wav`, espeak-ng, 3.6 s) decoded
  greedily in one window must give roughly its known text (word error rate at most
  `MAX_SMOKE_WER`). It uses the graphs the first use would build anyway (the `auto` precision on
  the CPU), so an import costs one decode of one window on top.
"""

from __future__ import annotations

import logging
import wave
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from app.engine.convert.weights import ModelFormatError, WhisperWeights
from app.engine.types import SAMPLE_RATE, DecodeOptions
from app.resource_files import RESOURCES_DIR

if TYPE_CHECKING:
    from app.engine.transcribe.whisper_engine import WhisperEngine

SMOKE_CLIP = RESOURCES_DIR / "selftest.wav"
SMOKE_TEXT = RESOURCES_DIR / "selftest.txt"
MAX_SMOKE_WER = 50.0
"""Percent. Sound models (tiny.en, base, every precision) read the clip with at most one word
wrong (about 10 %); a damaged one gives unrelated text or a repetition loop (100 % or more)."""

_log = logging.getLogger(__name__)


def check_finite(weights: WhisperWeights) -> None:
    """Raise `ModelFormatError` naming the first floating tensor that holds inf or NaN."""
    for name, tensor in weights.tensors.items():
        array = np.asarray(tensor)
        if np.issubdtype(array.dtype, np.floating) and not np.isfinite(array).all():
            bad = int(array.size - np.count_nonzero(np.isfinite(array)))
            raise ModelFormatError(
                f"the weights are damaged: tensor {name} holds {bad} value(s) that are not finite numbers"
            )


def check_transcribes(engine: WhisperEngine) -> None:
    """Raise `ModelFormatError` when `engine` does not read the self-test clip roughly right."""
    from app.engine.wer import word_error_rate

    expected = SMOKE_TEXT.read_text(encoding="utf-8").strip()
    options = DecodeOptions(
        beam_size=1,
        temperatures=(0.0,),
        condition_on_previous_text=False,
        language="en" if engine.is_multilingual else None,
    )
    got = engine.decode_window(read_clip(SMOKE_CLIP), options).text.strip()
    wer = word_error_rate([expected], [got])
    _log.info("smoke decode of %s: %r (WER %.1f %%)", engine.name, got, wer)
    if wer > MAX_SMOKE_WER:
        shown = got if len(got) <= 40 else got[:40] + "..."
        raise ModelFormatError(
            f"the weights look damaged: a test clip reading {expected!r} was transcribed as {shown!r}"
        )


def read_clip(path: Path) -> np.ndarray:
    """A 16-bit mono 16 kHz WAV as float32 samples in [-1, 1], shape [n_samples]."""
    with wave.open(str(path), "rb") as clip:
        if (clip.getsampwidth(), clip.getnchannels(), clip.getframerate()) != (2, 1, SAMPLE_RATE):
            raise ModelFormatError(f"{path} is not 16-bit mono {SAMPLE_RATE} Hz")
        data = clip.readframes(clip.getnframes())
    return (np.frombuffer(data, dtype="<i2").astype(np.float32) / 32768.0).astype(np.float32)

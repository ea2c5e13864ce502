"""Small I/O helpers for the benchmarks (kept out of the app package)."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np


def read_wav(path: Path) -> np.ndarray:
    """16-bit PCM WAV, 16 kHz mono -> float32 [n_samples]."""
    with wave.open(str(path), "rb") as wav:
        pcm = np.frombuffer(wav.readframes(wav.getnframes()), dtype="<i2")
    return (pcm.astype(np.float32) / 32768.0).astype(np.float32)

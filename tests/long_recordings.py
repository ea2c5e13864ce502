"""Long recordings made up for tests and benchmarks: minutes to hours of silence, noise or a
music-like signal with clips at known places. Written to 16 kHz 16-bit WAV a minute at a time,
so a 3-hour file (330 MB) is never held in memory. Import as `long_recordings`."""

from __future__ import annotations

import enum
import wave
from collections.abc import Sequence
from pathlib import Path

import numpy as np

RATE = 16_000
PIECE_S = 60


class Background(enum.Enum):
    SILENCE = "silence"  # digital zeros
    FLOOR = "floor"  # noise at -90 dBFS: the dither of a quiet recording, below any speech
    NOISE = "noise"  # white noise at -30 dBFS
    MUSIC = "music"  # plucked notes with harmonics, two a second, at about -25 dBFS


def dbfs(audio: np.ndarray) -> float:
    return float(20 * np.log10(np.sqrt(np.mean(np.square(audio, dtype=np.float64))) + 1e-12))


def at_level(audio: np.ndarray, level_dbfs: float) -> np.ndarray:
    """`audio` scaled to an RMS of `level_dbfs`."""
    return (audio * 10 ** ((level_dbfs - dbfs(audio)) / 20)).astype(np.float32)


def background(kind: Background, start: int, n: int, seed: int = 0) -> np.ndarray:
    """Samples [start, start + n) of a background, float32, the same for the same arguments."""
    if kind is Background.SILENCE:
        return np.zeros(n, dtype=np.float32)
    rng = np.random.default_rng([seed, start])
    if kind is Background.FLOOR:
        return rng.normal(0.0, 10 ** (-90 / 20), n).astype(np.float32)
    if kind is Background.NOISE:
        return rng.normal(0.0, 10 ** (-30 / 20), n).astype(np.float32)
    t = np.arange(start, start + n) / RATE
    notes = np.array([220.0, 247.0, 262.0, 294.0, 330.0, 349.0, 392.0, 440.0])
    freq = notes[(np.floor(t * 2).astype(np.int64) * 3) % len(notes)]
    since = t * 2 - np.floor(t * 2)  # time since the note began, in half seconds
    tone = sum(np.sin(2 * np.pi * freq * h * t) / h for h in (1, 2, 3))
    return (0.08 * np.exp(-1.5 * since) * tone).astype(np.float32)


def write_recording(path: Path, seconds: float, inserts: Sequence[tuple[float, np.ndarray]] = (),
                    kind: Background = Background.FLOOR, seed: int = 0) -> Path:
    """A WAV of `seconds` of `kind` with each (start s, clip float32) of `inserts` added in."""
    total = int(seconds * RATE)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        for start in range(0, total, PIECE_S * RATE):
            n = min(PIECE_S * RATE, total - start)
            piece = background(kind, start, n, seed)
            for at_s, clip in inserts:
                lo = int(at_s * RATE)
                a, b = max(lo, start), min(lo + len(clip), start + n)
                if a < b:
                    piece[a - start : b - start] += clip[a - lo : b - lo]
            out.writeframes((np.clip(piece, -1.0, 1.0) * 32767).round().astype("<i2").tobytes())
    return path


def utterances(clips: Sequence[tuple[np.ndarray, str]], seconds: float,
               seed: int = 0) -> tuple[np.ndarray, list[str]]:
    """The (audio, text) clips in a shuffled order, again and again, with pauses of 0.3-1.5 s,
    to at least `seconds`: a long recording made of many utterances. Returns audio and texts."""
    rng = np.random.default_rng(seed)
    pieces, texts, length = [], [], 0
    while length < seconds * RATE:
        for index in rng.permutation(len(clips)):
            audio, text = clips[index]
            pause = np.zeros(int(rng.uniform(0.3, 1.5) * RATE), dtype=np.float32)
            pieces += [audio, pause]
            texts.append(text)
            length += len(audio) + len(pause)
    return np.concatenate(pieces), texts

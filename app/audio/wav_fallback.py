"""Integer PCM WAV files read without FFmpeg (Python's `wave` module), for an installation that
has no PyAV and finds no `ffmpeg` on PATH (the .deb and the .tar.xz use the system's ffmpeg).

A WAV a recorder or `sox`/`arecord` writes (8, 16, 24 or 32-bit integer PCM, any rate and channel
count) then still decodes: channels are averaged to mono, as libswresample's normalised mix does,
and resampled by soxr (the live path's resampler). Everything else (float or extensible WAVs,
compressed formats) stays FFmpeg's: the caller gives its "install ffmpeg" message for those.
"""

from __future__ import annotations

import os
import wave
from collections.abc import Generator

import numpy as np

from app.audio.decode_common import AudioDecodeError, Samples, finite, no_samples_reason
from app.audio.resampler import StreamResampler
from app.audio.wav_length import TrailingAudio

BLOCK_FRAMES = 16_000
"""Frames read from the file at a time (one second at 16 kHz)."""

_FULL_SCALE = {1: 128.0, 2: 32768.0, 3: 8388608.0, 4: 2147483648.0}
"""Integer full scale per sample width in bytes (8-bit WAV is unsigned, offset 128)."""


def readable(path: str | os.PathLike[str]) -> bool:
    """Whether `wave` opens `path` as integer PCM (it refuses float, extensible and other files)."""
    try:
        with wave.open(os.fspath(path), "rb") as wav:
            return wav.getsampwidth() in _FULL_SCALE
    except (wave.Error, EOFError, OSError):
        return False


def duration(path: str | os.PathLike[str]) -> float | None:
    """Seconds of audio the header declares; None when `wave` cannot read the file."""
    try:
        with wave.open(os.fspath(path), "rb") as wav:
            return wav.getnframes() / wav.getframerate()
    except (wave.Error, EOFError, OSError, ZeroDivisionError):
        return None


def to_float(data: bytes, width: int, channels: int) -> Samples:
    """Interleaved little-endian PCM frames -> mono float32 [n_frames], nominally in [-1, 1]."""
    if width == 1:
        values = np.frombuffer(data, dtype=np.uint8).astype(np.float32) - 128.0
    elif width == 3:
        cells = np.frombuffer(data, dtype=np.uint8).reshape(-1, 3).astype(np.int32)
        values = ((cells[:, 0] | (cells[:, 1] << 8) | (cells[:, 2] << 16)) << 8 >> 8).astype(np.float32)
    else:
        values = np.frombuffer(data, dtype=f"<i{width}").astype(np.float32)
    mono = values.reshape(-1, channels).mean(axis=1, dtype=np.float32) / np.float32(_FULL_SCALE[width])
    return finite(mono.astype(np.float32))


def decode_blocks(
    path: str | os.PathLike[str], sample_rate: int, trailing: TrailingAudio | None = None
) -> Generator[Samples, None, None]:
    """Yield mono float32 blocks at `sample_rate`; `AudioDecodeError` when no frame decodes (an
    empty data chunk, or one cut short right after the header). With `trailing` (wav_length.py)
    the frames after the length the header declares are read too."""
    with wave.open(os.fspath(path), "rb") as wav:
        width, channels, declared = wav.getsampwidth(), wav.getnchannels(), wav.getnframes()
        resampler = StreamResampler(wav.getframerate(), sample_rate)
        frame_bytes, frames = width * channels, 0
        for data in _frame_bytes(wav, path, trailing, frame_bytes):
            usable = len(data) - len(data) % frame_bytes  # a last frame cut in half is dropped
            frames += usable // frame_bytes
            if usable and (block := resampler.process(to_float(data[:usable], width, channels))).size:
                yield block
    if frames == 0:
        raise AudioDecodeError(path, no_samples_reason(damaged=declared > 0))
    if (tail := resampler.flush()).size:
        yield tail


def _frame_bytes(
    wav: wave.Wave_read, path: str | os.PathLike[str], trailing: TrailingAudio | None, frame_bytes: int
) -> Generator[bytes, None, None]:
    """The data chunk's bytes, `BLOCK_FRAMES` frames at a time: those the header declares, then
    with `trailing` those after them to the end of the file."""
    while data := wav.readframes(BLOCK_FRAMES):
        yield data
    if trailing is None:
        return
    with open(path, "rb") as raw:
        raw.seek(trailing.offset + trailing.declared_bytes - trailing.declared_bytes % frame_bytes)
        while data := raw.read(BLOCK_FRAMES * frame_bytes):
            yield data

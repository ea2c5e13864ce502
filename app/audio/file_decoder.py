"""Decode any audio or video file to mono float32 samples at 16 kHz, through FFmpeg.

Every container and codec that FFmpeg reads works: wav, mp3, flac, ogg (vorbis, opus), m4a/aac,
wma, the audio track of mp4/mkv/webm/avi videos, at any channel count and sample rate. Channels
are averaged to mono and resampled by FFmpeg's libswresample.

Two backends give the same samples: PyAV (`pyav_decoder`, FFmpeg in-process, from the `av`
wheel) wherever `av` imports, else the `ffmpeg` command line (`ffmpeg_decoder`), which is what
the .deb uses: it depends on the distribution's ffmpeg instead of carrying PyAV's. `BACKEND`
names the one in use.

A WAV whose header declares less audio than the file holds (a recording cut off before its
header was finished) is read to the end of the file (`wav_length`).

Headerless files ending in `.raw` are read as signed 16-bit little-endian PCM, 16 kHz, mono
(what `sox ... -t raw -e signed -b 16 -r 16000 -c 1` or `arecord -f S16_LE -r 16000` writes).

Every failure raises `AudioDecodeError`, whose message is one line naming the file and the
reason, fit to show a user as is.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Generator, Iterator
from types import ModuleType

import numpy as np

from app.audio.decode_common import RAW_PCM_SUFFIX, SAMPLE_RATE, AudioDecodeError, Samples, check_path
from app.audio.wav_length import trailing_audio, warn_if_trailing

__all__ = [
    "BACKEND",
    "RAW_PCM_SUFFIX",
    "SAMPLE_RATE",
    "AudioDecodeError",
    "Samples",
    "decode_audio",
    "iter_audio_chunks",
    "probe_duration",
]

_log = logging.getLogger(__name__)


def _load_backend() -> ModuleType:
    try:
        from app.audio import pyav_decoder
    except ImportError:
        _log.info("PyAV is not installed: audio files are decoded by the ffmpeg command", exc_info=True)
        from app.audio import ffmpeg_decoder

        return ffmpeg_decoder
    return pyav_decoder


_backend = _load_backend()
BACKEND: str = _backend.NAME
"""The decoding backend in use: "PyAV" or "ffmpeg" (the command line)."""


def decode_audio(path: str | os.PathLike[str], sample_rate: int = SAMPLE_RATE) -> Samples:
    """Decode the first audio track of `path` to mono float32.

    Returns shape [n_samples], dtype float32, values nominally in [-1, 1], at `sample_rate` Hz.
    Damaged parts are skipped with a logged warning; a truncated file (an mp3 cut short)
    returns the audio before the cut.
    Raises `AudioDecodeError` when the file is missing, a folder, empty, not a media file, has
    no audio track, or holds no decodable audio (or, without PyAV, when ffmpeg is missing).
    """
    buffer = _GrowableSamples(_estimated_samples(path, sample_rate))
    for block in _decode_blocks(path, sample_rate):
        buffer.append(block)
    return buffer.finish()


def iter_audio_chunks(
    path: str | os.PathLike[str], chunk_s: float = 30.0, sample_rate: int = SAMPLE_RATE
) -> Iterator[Samples]:
    """Decode `path` lazily, yielding mono float32 chunks of `chunk_s` seconds.

    Every chunk has round(chunk_s * sample_rate) samples except the last, which may be shorter
    (never empty). Only about one chunk is held at a time, so long files stream in bounded
    memory. Errors are raised as `AudioDecodeError` by `next()`: bad paths and unreadable
    files on the first call, a track that turns out to hold no audio once that is known.
    Closing the iterator early (a cancelled job) stops the decoder.
    """
    chunk_len = round(chunk_s * sample_rate)
    if chunk_len <= 0:
        raise ValueError(f"chunk_s must give at least one sample, got {chunk_s}")
    chunk = np.empty(chunk_len, dtype=np.float32)
    filled = 0
    blocks = _decode_blocks(path, sample_rate)
    try:
        for block in blocks:
            while block.size:
                take = min(block.size, chunk_len - filled)
                chunk[filled : filled + take] = block[:take]
                filled += take
                block = block[take:]
                if filled == chunk_len:
                    yield chunk
                    chunk = np.empty(chunk_len, dtype=np.float32)
                    filled = 0
    finally:
        blocks.close()  # now, not at garbage collection: the ffmpeg backend's process ends here
    if filled:
        yield chunk[:filled].copy()


def probe_duration(path: str | os.PathLike[str]) -> float | None:
    """The duration of the first audio track in seconds, from container metadata (cheap).

    Meant for progress bars: it decodes nothing, so it may be approximate (VBR mp3 without a
    header) and is None when the container does not say or the file cannot be opened.
    """
    try:
        check_path(path)  # never open a FIFO or a device: the open itself could block
    except AudioDecodeError:
        return None
    trailing = trailing_audio(path)
    if trailing is not None and trailing.byte_rate:
        return trailing.file_s  # what is decoded (wav_length.py), not what the header says
    duration: float | None = _backend.probe_duration(path)
    return duration


def _decode_blocks(path: str | os.PathLike[str], sample_rate: int) -> Generator[Samples, None, None]:
    """Yield mono float32 blocks (any length) at `sample_rate`, from the backend in use."""
    if sample_rate <= 0:
        raise ValueError(f"sample_rate must be positive, got {sample_rate}")
    check_path(path)
    blocks: Generator[Samples, None, None] = _backend.decode_blocks(path, sample_rate, warn_if_trailing(path))
    return blocks


class _GrowableSamples:
    """A float32 array filled block by block; grows by doubling, trimmed in place at the end.

    Sized up front from the container's duration so a long file is normally held once, not
    twice as a list of blocks plus their concatenation.
    """

    def __init__(self, capacity: int) -> None:
        self._data = np.empty(max(capacity, 1), dtype=np.float32)
        self._size = 0

    def append(self, block: Samples) -> None:
        end = self._size + block.size
        if end > self._data.size:
            grown = np.empty(max(end, 2 * self._data.size), dtype=np.float32)
            grown[: self._size] = self._data[: self._size]
            self._data = grown
        self._data[self._size : end] = block
        self._size = end

    def finish(self) -> Samples:
        self._data.resize(self._size, refcheck=False)
        return self._data


def _estimated_samples(path: str | os.PathLike[str], sample_rate: int) -> int:
    duration = probe_duration(path)
    if duration is None or not 0 < duration < 24 * 3600:
        return sample_rate * 60
    return int(duration * sample_rate * 1.01) + sample_rate

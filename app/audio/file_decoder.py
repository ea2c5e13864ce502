"""Decode any audio or video file to mono float32 samples at 16 kHz, via PyAV.

PyAV carries its own FFmpeg, so every container and codec that FFmpeg reads works: wav, mp3,
flac, ogg (vorbis, opus), m4a/aac, wma, the audio track of mp4/mkv/webm/avi videos, at any
channel count and sample rate. Channels are averaged to mono and resampled by FFmpeg's
libswresample.

Headerless files ending in `.raw` are read as signed 16-bit little-endian PCM, 16 kHz, mono
(what `sox ... -t raw -e signed -b 16 -r 16000 -c 1` or `arecord -f S16_LE -r 16000` writes).

Every failure raises `AudioDecodeError`, whose message is one line naming the file and the
reason, fit to show a user as is.
"""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Iterator

import av
import numpy as np
import numpy.typing as npt
from av.audio.frame import AudioFrame
from av.audio.resampler import AudioResampler
from av.audio.stream import AudioStream
from av.container import InputContainer
from av.error import FFmpegError
from av.packet import Packet

SAMPLE_RATE = 16_000
"""Default output rate, samples per second (Whisper's input rate)."""

RAW_PCM_SUFFIX = ".raw"
"""Files with this suffix are read as headerless s16le, 16 kHz, mono."""

_RAW_OPTIONS = {"sample_rate": "16000", "ch_layout": "mono"}

# Without this, libswresample sums the channels when the output is float (stereo -> mono
# gives 0.707 * (L + R), which can exceed 1.0); with it the mix matrix is normalised, so
# stereo -> mono is the mean (L + R) / 2, as FFmpeg does for integer output.
_RESAMPLER_OPTIONS = {"rematrix_maxval": "1.0"}

_log = logging.getLogger(__name__)

Samples = npt.NDArray[np.float32]


class AudioDecodeError(Exception):
    """A file could not be decoded to audio. `str(error)` is one line naming the file."""

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        self.path = os.fspath(path)
        self.reason = reason
        super().__init__(f"Cannot read audio from {_display_name(self.path)}: {reason}")


def decode_audio(path: str | os.PathLike[str], sample_rate: int = SAMPLE_RATE) -> Samples:
    """Decode the first audio track of `path` to mono float32.

    Returns shape [n_samples], dtype float32, values nominally in [-1, 1], at `sample_rate` Hz.
    Damaged parts are skipped with a logged warning; a truncated file (an mp3 cut short)
    returns the audio before the cut.
    Raises `AudioDecodeError` when the file is missing, a folder, empty, not a media file, has
    no audio track, or holds no decodable audio.
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
    """
    chunk_len = round(chunk_s * sample_rate)
    if chunk_len <= 0:
        raise ValueError(f"chunk_s must give at least one sample, got {chunk_s}")
    chunk = np.empty(chunk_len, dtype=np.float32)
    filled = 0
    for block in _decode_blocks(path, sample_rate):
        while block.size:
            take = min(block.size, chunk_len - filled)
            chunk[filled : filled + take] = block[:take]
            filled += take
            block = block[take:]
            if filled == chunk_len:
                yield chunk
                chunk = np.empty(chunk_len, dtype=np.float32)
                filled = 0
    if filled:
        yield chunk[:filled].copy()


def probe_duration(path: str | os.PathLike[str]) -> float | None:
    """The duration of the first audio track in seconds, from container metadata (cheap).

    Meant for progress bars: it decodes nothing, so it may be approximate (VBR mp3 without a
    header) and is None when the container does not say or the file cannot be opened.
    """
    try:
        _check_path(path)  # never open a FIFO or a device: the open itself could block
        with _open_container(path) as container:
            if not container.streams.audio:
                return None
            stream = container.streams.audio[0]
            if stream.duration is not None and stream.time_base is not None:
                return float(stream.duration * stream.time_base)
            if container.duration is not None:
                return container.duration / av.time_base
    except AudioDecodeError:
        return None
    return None


def _decode_blocks(path: str | os.PathLike[str], sample_rate: int) -> Iterator[Samples]:
    """Yield mono float32 blocks (one per decoded frame, any length) at `sample_rate`."""
    if sample_rate <= 0:
        raise ValueError(f"sample_rate must be positive, got {sample_rate}")
    _check_path(path)
    n_samples = 0
    with _open_container(path) as container:
        if not container.streams.audio:
            raise AudioDecodeError(path, "it has no audio track")
        stream = container.streams.audio[0]
        resampled = _MonoResampler(sample_rate)
        problems: list[FFmpegError] = []
        for frame in _decoded_frames(container, stream, problems):
            for block in resampled.push(frame):
                n_samples += block.size
                yield block
        for block in resampled.flush():
            n_samples += block.size
            yield block
        if n_samples == 0:
            raise AudioDecodeError(path, _reason_for_no_samples(problems))
        if problems:
            _log.warning(
                "%s is damaged: decoded %.2f s, skipped %d bad part(s); last error: %s",
                _display_name(os.fspath(path)),
                n_samples / sample_rate,
                len(problems),
                problems[-1],
            )


def _decoded_frames(
    container: InputContainer, stream: AudioStream, problems: list[FFmpegError]
) -> Iterator[AudioFrame]:
    """The decoded frames of `stream`, skipping packets the decoder rejects.

    A demuxer error (data cut short, garbage) ends the stream early, after flushing what the
    decoder holds: the audio before it is kept. Every error is appended to `problems`.
    """
    packets = container.demux(stream)
    while True:
        packet: Packet[AudioStream] | None
        try:
            packet = next(packets)
        except StopIteration:
            return
        except FFmpegError as error:
            problems.append(error)
            packet = None
        try:
            yield from packet.decode() if packet else stream.codec_context.decode(None)
        except FFmpegError as error:
            problems.append(error)
        if packet is None:
            return


def _reason_for_no_samples(problems: list[FFmpegError]) -> str:
    if problems:
        return "the file is damaged or truncated; no audio could be decoded"
    return "the audio track is empty (zero length)"


class _MonoResampler:
    """Converts frames of any format, layout and rate to mono float32 blocks.

    A new FFmpeg resampler is set up whenever the input parameters change mid-stream
    (chained ogg, mp3 streams that switch rate), after flushing the previous one.
    """

    def __init__(self, sample_rate: int) -> None:
        self._rate = sample_rate
        self._resampler: AudioResampler | None = None
        self._input_key: tuple[str, str, int] | None = None

    def push(self, frame: AudioFrame) -> Iterator[Samples]:
        key = (frame.format.name, frame.layout.name, frame.sample_rate)
        if key != self._input_key:
            yield from self.flush()
            plain = _is_plain_pcm(frame, self._rate)
            self._resampler = None if plain else AudioResampler(
                format="flt", layout="mono", rate=self._rate, options=_RESAMPLER_OPTIONS
            )
            self._input_key = key
        if self._resampler is None:
            # 16-bit mono at the output rate (most WAVs): the same numbers as libswresample's
            # s16 -> flt (x / 32768), twice as fast on a long file
            yield frame.to_ndarray().reshape(-1).astype(np.float32) / np.float32(32768)
            return
        yield from _frames_to_blocks(self._resampler.resample(frame))

    def flush(self) -> Iterator[Samples]:
        if self._resampler is not None:
            yield from _frames_to_blocks(self._resampler.resample(None))
            self._resampler = None
            self._input_key = None


def _is_plain_pcm(frame: AudioFrame, rate: int) -> bool:
    return frame.format.name in ("s16", "s16p") and len(frame.layout.channels) == 1 and frame.sample_rate == rate


def _frames_to_blocks(frames: list[AudioFrame]) -> Iterator[Samples]:
    for frame in frames:
        block = frame.to_ndarray().reshape(-1)
        if block.size:
            yield _finite(block.astype(np.float32, copy=False))


def _finite(block: Samples) -> Samples:
    """NaN samples as 0 and infinities as +-1: a float WAV can store them, and one NaN would
    turn the whole window's log-mel, and so its text, into NaN."""
    if np.isfinite(block).all():
        return block
    return np.nan_to_num(block, nan=0.0, posinf=1.0, neginf=-1.0)


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


def _check_path(path: str | os.PathLike[str]) -> None:
    """Raise `AudioDecodeError` for the problems a user can fix before FFmpeg is involved.

    Only regular files (or links to them) pass: a named pipe would block the first open
    forever (it waits for a writer), a device or socket never ends or cannot be read, so these
    are refused from `stat` alone, before anything opens the path.
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise AudioDecodeError(path, "no such file") from None
    except PermissionError:
        raise AudioDecodeError(path, "permission denied") from None
    except OSError as error:
        raise AudioDecodeError(path, error.strerror or "the file cannot be read") from None
    if not stat.S_ISREG(info.st_mode):
        raise AudioDecodeError(path, _not_a_file_reason(info.st_mode))
    if info.st_size == 0:
        raise AudioDecodeError(path, "the file is empty (0 bytes)")


def _not_a_file_reason(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "it is a folder, not a file"
    if stat.S_ISFIFO(mode):
        return "it is a named pipe (FIFO), not a regular file"
    if stat.S_ISSOCK(mode):
        return "it is a socket, not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "it is a device, not a regular file"
    return "it is not a regular file"


def _open_container(path: str | os.PathLike[str]) -> InputContainer:
    """Open `path` for reading; `.raw` files as s16le 16 kHz mono."""
    name = os.fspath(path)
    try:
        # Tags that are not valid UTF-8 (a damaged ID3 header) would otherwise fail the open
        # with UnicodeDecodeError although the audio is intact: they are read with U+FFFD.
        if name.lower().endswith(RAW_PCM_SUFFIX):
            return av.open(name, mode="r", format="s16le", options=_RAW_OPTIONS, metadata_errors="replace")
        return av.open(name, mode="r", metadata_errors="replace")
    except FileNotFoundError:
        raise AudioDecodeError(path, "no such file") from None
    except IsADirectoryError:
        raise AudioDecodeError(path, "it is a folder, not a file") from None
    except PermissionError:
        raise AudioDecodeError(path, "permission denied") from None
    except (FFmpegError, OSError, UnicodeError):
        _log.debug("FFmpeg could not open %s", name, exc_info=True)
        raise AudioDecodeError(
            path, "not an audio or video file FFmpeg can read (unknown format or damaged)"
        ) from None


def _display_name(path: str) -> str:
    """The path quoted on one line (control characters escaped)."""
    text = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in path)
    return f"'{text}'"

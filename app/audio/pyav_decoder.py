"""The PyAV file-decoding backend: FFmpeg's libraries in-process (the `av` wheel carries them).

Used by `app.audio.file_decoder` whenever `av` imports (pip installs, the .tar.xz bundle);
`app.audio.ffmpeg_decoder` stands in where it does not (the .deb, which depends on Debian's
`ffmpeg` instead of shipping PyAV). Channels are averaged to mono and resampled by FFmpeg's
libswresample. Paths are checked (`decode_common.check_path`) by the caller.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator

import av
import numpy as np
from av.audio.frame import AudioFrame
from av.audio.resampler import AudioResampler
from av.audio.stream import AudioStream
from av.container import InputContainer
from av.error import FFmpegError
from av.packet import Packet

from app.audio.decode_common import (
    NO_AUDIO_TRACK_REASON,
    AudioDecodeError,
    Samples,
    display_name,
    finite,
    is_raw_pcm,
    no_samples_reason,
    not_media_reason,
)
from app.audio.wav_length import TrailingAudio

NAME = "PyAV"

_RAW_OPTIONS = {"sample_rate": "16000", "ch_layout": "mono"}

# Without this, libswresample sums the channels when the output is float (stereo -> mono
# gives 0.707 * (L + R), which can exceed 1.0); with it the mix matrix is normalised, so
# stereo -> mono is the mean (L + R) / 2, as FFmpeg does for integer output.
_RESAMPLER_OPTIONS = {"rematrix_maxval": "1.0"}

_log = logging.getLogger(__name__)


def probe_duration(path: str | os.PathLike[str]) -> float | None:
    """The first audio track's duration in seconds from container metadata; None if unknown."""
    try:
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


def decode_blocks(
    path: str | os.PathLike[str], sample_rate: int, trailing: TrailingAudio | None = None
) -> Iterator[Samples]:
    """Yield mono float32 blocks (one per decoded frame, any length) at `sample_rate`; with
    `trailing` (wav_length.py) a WAV is read to the end of the file, past its header's length."""
    n_samples = 0
    with _open_container(path, whole_file=trailing is not None) as container:
        if not container.streams.audio:
            raise AudioDecodeError(path, NO_AUDIO_TRACK_REASON)
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
            raise AudioDecodeError(path, no_samples_reason(bool(problems)))
        if problems:
            _log.warning(
                "%s is damaged: decoded %.2f s, skipped %d bad part(s); last error: %s",
                display_name(os.fspath(path)),
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
            self._resampler = (
                None
                if plain
                else AudioResampler(format="flt", layout="mono", rate=self._rate, options=_RESAMPLER_OPTIONS)
            )
            self._input_key = key
        if self._resampler is None:
            # 16-bit mono at the output rate (most WAVs): the same numbers as libswresample's
            # s16 -> flt (x / 32768), and much faster on a long file
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
            yield finite(block.astype(np.float32, copy=False))


def _open_container(path: str | os.PathLike[str], whole_file: bool = False) -> InputContainer:
    """Open `path` for reading; `.raw` files as s16le 16 kHz mono; `whole_file`: FFmpeg's WAV
    reader ignores the header's length."""
    name = os.fspath(path)
    try:
        # Tags that are not valid UTF-8 (a damaged ID3 header) would otherwise fail the open
        # with UnicodeDecodeError although the audio is intact: they are read with U+FFFD.
        if is_raw_pcm(name):
            return av.open(name, mode="r", format="s16le", options=_RAW_OPTIONS, metadata_errors="replace")
        options = {"ignore_length": "1"} if whole_file else {}
        return av.open(name, mode="r", options=options, metadata_errors="replace")
    except FileNotFoundError:
        raise AudioDecodeError(path, "no such file") from None
    except IsADirectoryError:
        raise AudioDecodeError(path, "it is a folder, not a file") from None
    except PermissionError:
        raise AudioDecodeError(path, "permission denied") from None
    except (FFmpegError, OSError, UnicodeError):
        _log.debug("FFmpeg could not open %s", name, exc_info=True)
        raise AudioDecodeError(path, not_media_reason(path)) from None

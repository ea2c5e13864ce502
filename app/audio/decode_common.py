"""What both file-decoding backends share: the error a user sees, the path checks made before
any decoder opens the file, and the sample clean-up applied to decoded audio."""

from __future__ import annotations

import os
import stat

import numpy as np
import numpy.typing as npt

from app.audio.mp4_index import UNFINISHED_MP4_REASON, is_unfinished_mp4

SAMPLE_RATE = 16_000
"""Default output rate, samples per second (Whisper's input rate)."""

RAW_PCM_SUFFIX = ".raw"
"""Files with this suffix are read as headerless s16le, 16 kHz, mono."""

Samples = npt.NDArray[np.float32]


class AudioDecodeError(Exception):
    """A file could not be decoded to audio. `str(error)` is one line naming the file."""

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        self.path = os.fspath(path)
        self.reason = reason
        super().__init__(f"Cannot read audio from {display_name(self.path)}: {reason}")


def is_raw_pcm(path: str | os.PathLike[str]) -> bool:
    return os.fspath(path).lower().endswith(RAW_PCM_SUFFIX)


def check_path(path: str | os.PathLike[str]) -> None:
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


def finite(block: Samples) -> Samples:
    """NaN samples as 0 and infinities as +-1: a float WAV can store them, and one NaN would
    turn the whole window's log-mel, and so its text, into NaN."""
    if np.isfinite(block).all():
        return block
    return np.nan_to_num(block, nan=0.0, posinf=1.0, neginf=-1.0)


def no_samples_reason(damaged: bool) -> str:
    """Why a track gave no samples: decoder errors (`damaged`) or a track of zero length."""
    if damaged:
        return "the file is damaged or truncated; no audio could be decoded"
    return "the audio track is empty (zero length)"


NOT_MEDIA_REASON = "not an audio or video file FFmpeg can read (unknown format or damaged)"
NO_AUDIO_TRACK_REASON = "it has no audio track"


def not_media_reason(path: str | os.PathLike[str]) -> str:
    """Why FFmpeg could not open `path`: an MP4/MOV recording that was never finished is named
    as such (its sound is there and can be repaired), anything else is `NOT_MEDIA_REASON`."""
    return UNFINISHED_MP4_REASON if is_unfinished_mp4(path) else NOT_MEDIA_REASON


def display_name(path: str) -> str:
    """The path quoted on one line (control characters escaped)."""
    text = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in path)
    return f"'{text}'"

"""WAV files whose header declares less audio than the file holds.

A recorder writes a WAV header first and rewrites its lengths as it goes, or only when it
stops. One that is killed between two rewrites (a crash, a pulled plug, a full disk) leaves a
header that declares part of the audio, followed by the rest. FFmpeg (and Python's `wave`)
trust the header and stop where it says, so minutes of speech would go untranscribed without
a word. This module finds such files from their chunk layout, so the decoders read to the end
of the file instead (FFmpeg's `ignore_length`; `wav_fallback` reads the bytes itself), and the
log says so.

A WAV may also carry chunks after its audio (`LIST`, `id3 `, `cue `): those are what the
header's length is for, and bytes after the data chunk that read as a chunk header whose
length fits the file are left to the header.
"""

from __future__ import annotations

import logging
import os
import struct
from dataclasses import dataclass
from typing import BinaryIO

_log = logging.getLogger(__name__)

MIN_TRAILING_BYTES = 1024
"""Fewer bytes than this after the declared audio (a pad byte, a torn last chunk) are left alone."""
_MAX_CHUNKS = 64
"""Chunks walked before the data chunk at most (a damaged file must not loop long)."""


@dataclass(frozen=True)
class TrailingAudio:
    """Audio bytes after the end the header declares: `offset` (where the data chunk's samples
    start), `declared_bytes` (what the header says they are) and `file_bytes` (the bytes from
    `offset` to the end of the file); `byte_rate` bytes per second, 0 where the header gives none."""

    offset: int
    declared_bytes: int
    file_bytes: int
    byte_rate: int

    @property
    def declared_s(self) -> float:
        return self.declared_bytes / self.byte_rate if self.byte_rate else 0.0

    @property
    def file_s(self) -> float:
        return self.file_bytes / self.byte_rate if self.byte_rate else 0.0


def trailing_audio(path: str | os.PathLike[str]) -> TrailingAudio | None:
    """The audio a RIFF/WAVE file holds past its header's declared data length, or None (not a
    WAV, no such bytes, or a chunk follows the audio)."""
    try:
        with open(path, "rb") as wav:
            size = os.fstat(wav.fileno()).st_size
            found = _data_chunk(wav, size)
            if found is None:
                return None
            offset, declared, byte_rate = found
            end = offset + declared + (declared & 1)
            if size - end < MIN_TRAILING_BYTES or _chunk_follows(wav, end, size):
                return None
    except OSError:
        return None
    return TrailingAudio(offset, declared, size - offset, byte_rate)


def warn_if_trailing(path: str | os.PathLike[str]) -> TrailingAudio | None:
    """`trailing_audio`, with one log warning where there is some (once per decode)."""
    trailing = trailing_audio(path)
    if trailing is not None:
        _log.warning(
            "%s: its header declares %.1f s of audio but the file holds %.1f s (a recording cut off "
            "before its header was finished): decoding to the end of the file",
            os.fspath(path),
            trailing.declared_s,
            trailing.file_s,
        )
    return trailing


def _data_chunk(wav: BinaryIO, size: int) -> tuple[int, int, int] | None:
    """(offset of the data chunk's samples, its declared length, the fmt chunk's byte rate)."""
    head = wav.read(12)
    if len(head) < 12 or head[:4] != b"RIFF" or head[8:12] != b"WAVE":
        return None
    at, byte_rate = 12, 0
    for _ in range(_MAX_CHUNKS):
        wav.seek(at)
        header = wav.read(8)
        if len(header) < 8:
            return None
        chunk_id, length = header[:4], struct.unpack("<I", header[4:])[0]
        if chunk_id == b"data":
            return at + 8, length, byte_rate
        if chunk_id == b"fmt " and length >= 12:
            byte_rate = struct.unpack("<I", wav.read(12)[8:12])[0]
        at += 8 + length + (length & 1)
        if at >= size:
            return None
    return None


def _chunk_follows(wav: BinaryIO, at: int, size: int) -> bool:
    """Whether the bytes at `at` read as a chunk header (four printable ASCII characters) whose
    length ends within the file."""
    wav.seek(at)
    header = wav.read(8)
    if len(header) < 8 or not all(0x20 <= byte <= 0x7E for byte in header[:4]):
        return False
    length: int = struct.unpack("<I", header[4:])[0]
    return at + 8 + length <= size

"""A file opened for streaming transcription: its audio chunks and its expected duration."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

from app.audio.file_decoder import Samples, iter_audio_chunks, probe_duration

CHUNK_S = 30.0
"""Seconds per decoded chunk: about 2 MB held at a time, whatever the file's length."""


@dataclass
class FileStream:
    """`chunks`: mono float32 16 kHz arrays in order, decoded as they are read; `duration_s`:
    the container's duration in seconds (None when it does not say), for progress."""

    chunks: Iterator[Samples]
    duration_s: float | None


def open_file_stream(path: str | os.PathLike[str], chunk_s: float = CHUNK_S) -> FileStream:
    """Start decoding `path`. A bad file raises `AudioDecodeError` here, before any model work:
    the first chunk is decoded now."""
    chunks = iter_audio_chunks(path, chunk_s)
    first = next(chunks)  # never StopIteration: a file without samples raises AudioDecodeError
    return FileStream(_first_then_rest(first, chunks), probe_duration(path))


def _first_then_rest(first: Samples, rest: Iterator[Samples]) -> Iterator[Samples]:
    """`first`, then `rest`; closing this closes `rest` too (`yield from`), which stops the decoder."""
    yield first
    yield from rest

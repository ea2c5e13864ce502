"""Transcribe one archive file in whichever process holds the engine (driver, pool worker, Ray actor).

Everything crossing a process boundary here is a plain picklable dataclass: the worker returns
segments and metadata, and the driver writes the transcripts and the manifest line.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from app.engine.types import DecodeOptions, Precision, Segment

if TYPE_CHECKING:
    from app.audio.file_stream import FileStream
    from app.engine.export.formats import TranscriptMeta
    from app.engine.transcribe.whisper_engine import WhisperEngine

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class EngineSpec:
    """How every worker loads its engine: `model` None = the bundled tiny.en; `threads` per worker."""

    model: str | None
    precision: Precision
    provider: str
    threads: int

    def __post_init__(self) -> None:
        if self.threads < 1:
            raise ValueError(f"threads per worker must be at least 1, not {self.threads}")

    def load(self) -> WhisperEngine:
        from app.engine.models.loader import load_engine

        return load_engine(self.model, self.precision, self.provider, self.threads)


@dataclass(frozen=True)
class FileJob:
    """Input `index` of the run: `source` (a path the worker can open) and the options."""

    index: int
    source: str
    options: DecodeOptions


class FileOutcome(Enum):
    DONE = "done"
    BAD_INPUT = "bad input"
    """The file cannot be decoded: the same anywhere, so it is not retried."""
    ERROR = "error"
    """Anything else went wrong: it may be the worker's, so the driver retries it once elsewhere."""


@dataclass
class FileResult:
    """What one attempt gave: segments and meta when DONE, else a one-line `error`."""

    index: int
    outcome: FileOutcome
    segments: list[Segment] = field(default_factory=list)
    meta: TranscriptMeta | None = None
    error: str = ""
    worker_pid: int = field(default_factory=os.getpid)


def transcribe_file(engine: WhisperEngine, job: FileJob) -> FileResult:
    """Decode and transcribe `job.source` completely; failures become a FileResult, never raise."""
    from app.audio.file_decoder import AudioDecodeError
    from app.audio.file_stream import open_file_stream

    t0 = time.perf_counter()
    try:
        stream = open_file_stream(job.source)  # decoded as it is transcribed: flat memory on long files
    except AudioDecodeError as exc:
        log.warning("cannot read %s", job.source, exc_info=True)
        return FileResult(job.index, FileOutcome.BAD_INPUT, error=_one_line(exc))
    try:
        return _transcribe_stream(engine, job, stream, t0)
    except Exception as exc:  # one file's failure must not stop the worker
        log.exception("transcribing %s failed", job.source)
        return FileResult(
            job.index, FileOutcome.ERROR, error=f"could not be transcribed ({type(exc).__name__}: {_one_line(exc)})"
        )


def _transcribe_stream(engine: WhisperEngine, job: FileJob, stream: FileStream, t0: float) -> FileResult:
    from app.audio.vad import SileroVadModel
    from app.engine.export.formats import TranscriptMeta

    decode_s = time.perf_counter() - t0
    segments_iter, info = engine.transcribe(
        stream.chunks, job.options, duration_s=stream.duration_s, speech=SileroVadModel()
    )
    segments = list(segments_iter)
    info.timings.load_s, info.timings.decode_audio_s = engine.load_s, decode_s
    info.timings.total_s = time.perf_counter() - t0
    meta = TranscriptMeta.of(job.source, engine.name, engine.precision.value, info)
    return FileResult(job.index, FileOutcome.DONE, segments, meta)


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__

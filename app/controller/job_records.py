"""A file job's records: the frozen snapshot the GUI thread holds, the worker thread's own
mutable record it is made from, and the transcript a job ends with.

Times are audio seconds of the job's file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from app.controller.ports import FileTranscript, LoadedEngine
from app.controller.states import JobState
from app.engine.types import CancelToken, Segment, TranscriptionInfo


@dataclass(frozen=True)
class Job:
    """One file job as the GUI sees it: a frozen snapshot, made by the worker thread at each
    change and handed to the GUI thread by a queued signal (nothing is shared while it runs).
    `done_s`/`total_s`/`eta_s`: audio seconds done, in total, and the seconds still expected."""

    id: int
    path: Path
    state: JobState = JobState.QUEUED
    done_s: float = 0.0
    total_s: float | None = None
    eta_s: float | None = None
    error: str = ""
    transcript: FileTranscript | None = None

    @property
    def fraction(self) -> float:
        if self.state == JobState.DONE:
            return 1.0
        return min(1.0, self.done_s / self.total_s) if self.total_s else 0.0


@dataclass
class JobRecord:
    """The worker thread's own record of a job: only that thread writes it; other threads use
    nothing but `cancel_token` (thread-safe)."""

    id: int
    path: Path
    state: JobState = JobState.QUEUED
    done_s: float = 0.0
    total_s: float | None = None
    eta_s: float | None = None
    error: str = ""
    transcript: FileTranscript | None = None
    cancel_token: CancelToken = field(default_factory=CancelToken)

    def snapshot(self) -> Job:
        return Job(self.id, self.path, self.state, self.done_s, self.total_s, self.eta_s, self.error, self.transcript)


def file_transcript(
    job: JobRecord, loaded: LoadedEngine, segments: list[Segment], info: TranscriptionInfo
) -> FileTranscript:
    """The job's result; its duration is the file's (`job.total_s`), also when cancelled."""
    return FileTranscript(
        path=job.path,
        segments=segments,
        language=info.language,
        duration_s=job.total_s or info.duration_s,
        model=loaded.description.model,
        precision=loaded.description.precision,
        language_probability=info.language_probability,
        timings=info.timings,
    )

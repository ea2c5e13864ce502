"""The file job queue: one background thread transcribes queued files in order.

Each job reports progress as audio seconds done of the total, with an ETA; a bad file fails
its own job with a readable message and the queue goes on.
"""

from __future__ import annotations

import dataclasses
import itertools
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal

from app.archive.inputs import list_inputs
from app.controller.job_records import Job, JobRecord, file_transcript
from app.controller.ports import AudioDecoder, Engine, EngineConfig, EngineLoader, FileAudio, LoadedEngine
from app.controller.states import JobState
from app.engine.types import CancelledError, DecodeOptions, Segment, TranscriptionInfo

log = logging.getLogger(__name__)


def expand_paths(paths: Iterable[Path]) -> list[Path]:
    """Files as given; folders replaced by the media files inside them (recursive, sorted).

    Folders are listed as `earshot transcribe DIR --recursive` lists them (one listing for both):
    hidden files and folders are skipped (e.g. macOS "._x.m4a" resource forks, not audio).
    """
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(item.source for item in list_inputs([str(path)], recursive=True)[0])
        else:
            found.append(path)  # a file named by itself is always tried; a bad one fails its row
    return found


class JobQueue(QObject):
    """Transcribes added files in order on one thread; `jobs` holds each job's latest snapshot
    (GUI thread), and every change is announced with a new one."""

    job_added = Signal(object)  # Job
    job_changed = Signal(object)  # Job
    job_finished = Signal(object)  # Job (done, failed or cancelled), announced once
    _update = Signal(object)  # Job, from the worker thread

    def __init__(
        self,
        loader: EngineLoader,
        decoder: AudioDecoder,
        config: Callable[[], tuple[EngineConfig, DecodeOptions]],
        before_load: Callable[[], object] = lambda: None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._loader = loader
        self._before_load = before_load
        self._decoder = decoder
        self._config = config
        self._ids = itertools.count(1)
        self.jobs: dict[int, Job] = {}  # the latest snapshot of each job; GUI thread only
        self._work: dict[int, JobRecord] = {}
        self._queue: queue.Queue[tuple[JobRecord, EngineConfig, DecodeOptions] | None] = queue.Queue()
        self._engine: tuple[EngineConfig, LoadedEngine] | None = None
        self._worker = threading.Thread(target=self._run, name="earshot-jobs", daemon=True)
        self._worker.start()
        self._update.connect(self._on_update, Qt.ConnectionType.QueuedConnection)

    def add(self, paths: Iterable[Path]) -> list[Job]:
        added = []
        for path in expand_paths(paths):
            work = JobRecord(next(self._ids), path)
            self._work[work.id] = work
            job = self.jobs[work.id] = work.snapshot()
            added.append(job)
            self.job_added.emit(job)
            engine_config, options = self._config()
            self._queue.put((work, engine_config, options))
        return added

    def cancel(self, job_id: int) -> None:
        job = self.jobs.get(job_id)
        if job is not None and not job.state.finished:
            self._work[job_id].cancel_token.cancel()
            if job.state == JobState.QUEUED:  # the worker will skip it: announce its end now
                self._on_update(dataclasses.replace(job, state=JobState.CANCELLED))

    def remove(self, job_id: int) -> None:
        job = self.jobs.get(job_id)
        if job is not None and job.state.finished:
            del self.jobs[job_id], self._work[job_id]

    def shutdown(self, timeout_s: float = 3.0) -> list[Job]:
        """Cancel every job and wait for the worker thread (it checks cancel at every step).
        Returns the jobs it ended that the GUI thread will never hear of (the app is quitting),
        with the text each kept."""
        for work in self._work.values():
            work.cancel_token.cancel()
        self._queue.put(None)
        self._worker.join(timeout_s)
        if self._worker.is_alive():
            return []  # still writing its records: nothing of them is safe to read
        unheard = [
            work.snapshot()
            for work in self._work.values()
            if work.state.finished and work.transcript is not None and not self.jobs[work.id].state.finished
        ]
        for job in unheard:
            self.jobs[job.id] = job  # announced now: a queued update that still arrives is ignored
        return unheard

    @property
    def holds_engine(self) -> bool:
        """True while the file jobs' own engine is loaded."""
        return self._engine is not None

    def release_engine(self) -> None:
        """Let the file jobs' engine leave memory while no job is pending (the next job loads it
        again)."""
        if self.pending() == 0:
            self._engine = None

    def pending(self) -> int:
        """Jobs whose end has not yet been announced on the GUI thread."""
        return sum(not job.state.finished for job in self.jobs.values())

    # --- worker thread -----------------------------------------------------------------

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            job, engine_config, options = item
            if job.cancel_token.cancelled:
                continue
            try:
                self._transcribe(job, engine_config, options)
            except CancelledError:
                self._set(job, JobState.CANCELLED)
            except Exception as exc:  # a bad file fails its row; the queue goes on
                log.exception("transcribing %s failed", job.path)
                job.error = _readable(exc)
                self._set(job, JobState.FAILED)

    def _transcribe(self, job: JobRecord, engine_config: EngineConfig, options: DecodeOptions) -> None:
        self._set(job, JobState.DECODING)
        audio = self._decoder(job.path)  # decoded as it is transcribed: flat memory on long files
        job.total_s = audio.duration_s
        loaded = self._engine_for(job, engine_config)
        job.cancel_token.raise_if_cancelled()
        self._set(job, JobState.TRANSCRIBING)
        segments, info, cancelled = self._collect(job, loaded.engine, audio, options)
        if cancelled:
            self._keep_partial(job, loaded, segments, info)
            return
        if info.duration_s <= 0:
            raise ValueError("the file has no audio")
        job.total_s = info.duration_s
        job.transcript = file_transcript(job, loaded, segments, info)
        job.done_s = job.total_s
        self._set(job, JobState.DONE)

    def _keep_partial(
        self, job: JobRecord, loaded: LoadedEngine, segments: list[Segment], info: TranscriptionInfo
    ) -> None:
        """A cancelled job with text keeps it (Open, Copy, Export, History); without, it is just cancelled."""
        if any(s.text.strip() for s in segments):
            job.transcript = file_transcript(job, loaded, segments, info)
        self._set(job, JobState.CANCELLED)

    def _collect(
        self, job: JobRecord, engine: Engine, audio: FileAudio, options: DecodeOptions
    ) -> tuple[list[Segment], TranscriptionInfo, bool]:
        """Run the engine, updating progress and ETA as it goes: (segments, info, cancelled).
        A cancel while transcribing keeps the segments so far (as the CLI does)."""
        started = time.monotonic()

        def progress(done_s: float, total_s: float) -> None:
            job.done_s = min(done_s, job.total_s or total_s)
            if job.done_s > 0 and job.total_s:
                job.eta_s = (time.monotonic() - started) / job.done_s * (job.total_s - job.done_s)
            self._set(job, JobState.TRANSCRIBING)

        iterator, info = engine.transcribe(
            audio.chunks, options, job.cancel_token, progress, duration_s=audio.duration_s, speech=audio.speech
        )
        segments: list[Segment] = []
        try:
            for segment in iterator:
                segments.append(segment)
                progress(segment.end, job.total_s or segment.end)
            job.cancel_token.raise_if_cancelled()
        except CancelledError:
            return segments, info, True
        return segments, info, False

    def _engine_for(self, job: JobRecord, config: EngineConfig) -> LoadedEngine:
        """Files run on their own engine instance so they never block live dictation."""
        if self._engine is None or self._engine[0] != config:
            self._set(job, JobState.LOADING_MODEL)
            self._engine = None
            self._before_load()  # let the main load convert first: conversions must not race
            self._engine = (config, self._loader(config))
        return self._engine[1]

    def _set(self, job: JobRecord, state: JobState) -> None:
        job.state = state
        try:
            self._update.emit(job.snapshot())
        except RuntimeError:
            job.cancel_token.cancel()  # the app closed: stop working for nobody

    # --- GUI thread ----------------------------------------------------------------------

    def _on_update(self, job: Job) -> None:
        current = self.jobs.get(job.id)
        if current is None or current.state.finished:
            return  # removed, or its end already announced (a queued job cancelled here, then started)
        self.jobs[job.id] = job  # before the signals: listeners see pending() without it
        self.job_changed.emit(job)
        if job.state.finished:
            self.job_finished.emit(job)


def _readable(exc: Exception) -> str:
    message = str(exc).strip() or type(exc).__name__
    return message[0].upper() + message[1:]

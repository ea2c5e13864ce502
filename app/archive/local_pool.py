"""Run archive jobs on this machine: in this process, or in N worker processes with an engine each.

`--jobs N` > 1 starts N spawned processes (not forked: onnxruntime's thread pools do not
survive a fork), each loading its engine once with `EngineSpec.threads` threads. A worker that
dies (killed, out of memory) breaks the pool: its files come back as `FileOutcome.ERROR` results,
and the driver's retry round (`app.archive.schedule`) runs them again on a fresh pool.
"""

from __future__ import annotations

import logging
import multiprocessing
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from typing import TYPE_CHECKING

from app.archive.file_job import EngineSpec, FileJob, FileOutcome, FileResult, transcribe_file

if TYPE_CHECKING:
    from app.engine.transcribe.whisper_engine import WhisperEngine

log = logging.getLogger(__name__)

_worker_engine: WhisperEngine | None = None
"""The engine of this pool worker process (loaded once by `_start_worker`)."""


class InProcessBackend:
    """`--jobs 1`: the driver's own engine, one file after another."""

    def __init__(self, engine: WhisperEngine) -> None:
        self.engine = engine

    def run(self, jobs: Sequence[FileJob]) -> Iterator[FileResult]:
        for job in jobs:
            yield transcribe_file(self.engine, job)


class ProcessPoolBackend:
    """`--jobs N`: N worker processes; results come back as files finish (any order)."""

    def __init__(self, spec: EngineSpec, workers: int) -> None:
        if workers < 2:
            raise ValueError(f"a process pool needs at least 2 workers, not {workers}")
        self.spec, self.workers = spec, workers

    def run(self, jobs: Sequence[FileJob]) -> Iterator[FileResult]:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(self.workers, mp_context=context, initializer=_start_worker,
                                 initargs=(self.spec,)) as pool:
            futures: dict[Future[FileResult], FileJob] = {pool.submit(_run_job, job): job for job in jobs}
            try:
                for future in as_completed(futures):
                    yield _result_of(future, futures[future])
            finally:
                for future in futures:
                    future.cancel()  # interrupted: do not start what is left


def _result_of(future: Future[FileResult], job: FileJob) -> FileResult:
    try:
        return future.result()
    except Exception as exc:  # BrokenProcessPool and the like: a worker died, the file may be fine
        log.warning("worker failed on %s", job.source, exc_info=True)
        return FileResult(job.index, FileOutcome.ERROR, error=f"its worker failed ({type(exc).__name__})")


def _start_worker(spec: EngineSpec) -> None:
    global _worker_engine
    _worker_engine = spec.load()


def _run_job(job: FileJob) -> FileResult:
    assert _worker_engine is not None, "the pool initializer loads the engine"
    return transcribe_file(_worker_engine, job)

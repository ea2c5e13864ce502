"""Run archive jobs on a Ray cluster (the optional extra `earshot[cluster]`).

The driver keeps the file list; each Ray actor loads one engine (its ONNX sessions built once,
the converted model taken from, or rebuilt into, that node's cache under the same key) and
transcribes the files it is handed, two at a time queued so it never waits for the driver. Results
come back to the driver, which writes transcripts and the manifest as a local run does. An actor
that dies (node lost, killed, out of memory) is replaced; the files it held come back as
`FileOutcome.ERROR` and the driver's retry round runs them again on the actors left
(`app.archive.schedule`): a file failing twice is reported.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from collections import deque
from collections.abc import Iterator, Sequence
from typing import Any

from app.archive.file_job import EngineSpec, FileJob, FileOutcome, FileResult, transcribe_file

LOCAL = "local"
"""`--ray local`: start a Ray instance on this machine for the run (and stop it after)."""
QUEUED_PER_ACTOR = 2
LOCAL_OBJECT_STORE_BYTES = 256 * 2**20
"""Results are a few kB of text: a small object store leaves the memory to the engines."""

log = logging.getLogger(__name__)


class RayUnavailableError(RuntimeError):
    """`ray` is not installed; `str(error)` is one line saying how to install it."""


class EngineActor:
    """One engine in one Ray worker process."""

    def __init__(self, spec: EngineSpec) -> None:
        self.engine = spec.load()

    def transcribe(self, job: FileJob) -> FileResult:
        return transcribe_file(self.engine, job)


def _ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise RayUnavailableError("--ray needs Ray: pip install 'earshot[cluster]' (or pip install ray)") from exc
    return ray


class RayBackend:
    """Ray actors, one engine each, `spec.threads` CPUs each; `actors` None = as many as the cluster's CPUs allow."""

    def __init__(self, spec: EngineSpec, address: str, actors: int | None = None) -> None:
        self.spec, self.address, self.actors = spec, address, actors
        self.ray = _ray()

    def run(self, jobs: Sequence[FileJob]) -> Iterator[FileResult]:
        started_here = self._connect()
        try:
            yield from _ActorPool(self.ray, self.spec, self._actor_count(len(jobs))).run(jobs)
        finally:
            if started_here:
                self.ray.shutdown()

    def _connect(self) -> bool:
        """Join or start Ray; True when this call started it (so the run stops it)."""
        ray = self.ray
        if ray.is_initialized():
            return False
        quiet: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.WARNING}
        handlers = _python_stop_handlers()
        if self.address == LOCAL:
            ray.init(object_store_memory=LOCAL_OBJECT_STORE_BYTES, **quiet)
        else:
            ray.init(address=self.address, **quiet)
        for signum, handler in handlers.items():  # Ray's own C++ handler exits on SIGTERM at once
            signal.signal(signum, handler)
        return True

    def _actor_count(self, n_jobs: int) -> int:
        if self.actors is not None:
            return max(1, min(self.actors, n_jobs))
        cpus = int(self.ray.cluster_resources().get("CPU", 1))
        return max(1, min(cpus // self.spec.threads, n_jobs))


def _python_stop_handlers() -> dict[int, Any]:
    """The Python handlers of SIGINT, SIGTERM and SIGHUP (main thread only): ray.init replaces
    them with one that ends the process on the spot, and the run must stop its own way (the
    summary said, `ray.shutdown()` stopping a cluster it started)."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    names = ("SIGINT", "SIGTERM", "SIGHUP")
    found = {getattr(signal, n): signal.getsignal(getattr(signal, n)) for n in names if hasattr(signal, n)}
    return {signum: handler for signum, handler in found.items() if callable(handler)}


class _ActorPool:
    """Feeds jobs to actors, replaces dead ones, yields one result per job."""

    def __init__(self, ray: Any, spec: EngineSpec, count: int) -> None:
        self.ray, self.spec = ray, spec
        self.actor_class = ray.remote(num_cpus=spec.threads, max_restarts=0)(EngineActor)
        self.actors = [self.actor_class.remote(spec) for _ in range(count)]
        self.inflight: dict[Any, tuple[FileJob, Any]] = {}
        self.queue: deque[FileJob] = deque()

    def run(self, jobs: Sequence[FileJob]) -> Iterator[FileResult]:
        self.queue.extend(jobs)
        for actor in list(self.actors):
            self._feed(actor, QUEUED_PER_ACTOR)
        while self.inflight:
            (ref,), _ = self.ray.wait(list(self.inflight), num_returns=1)
            job, actor = self.inflight.pop(ref)
            result = self._result(ref, job, actor)
            if actor in self.actors:
                self._feed(actor, 1)
            yield result

    def _result(self, ref: Any, job: FileJob, actor: Any) -> FileResult:
        try:
            result: FileResult = self.ray.get(ref)
            return result
        except self.ray.exceptions.RayError as exc:  # the actor died, or its node: the file may be fine
            log.warning("Ray worker failed on %s", job.source, exc_info=True)
            self._replace(actor)
            return FileResult(
                job.index,
                FileOutcome.ERROR,
                error=f"its Ray worker failed ({type(exc).__name__})",
                worker_pid=os.getpid(),
            )

    def _replace(self, actor: Any) -> None:
        if actor in self.actors:  # once, though each of its queued files fails
            self.actors.remove(actor)
            self.ray.kill(actor)
            fresh = self.actor_class.remote(self.spec)
            self.actors.append(fresh)
            self._feed(fresh, QUEUED_PER_ACTOR)

    def _feed(self, actor: Any, count: int) -> None:
        for _ in range(count):
            if not self.queue:
                return
            job = self.queue.popleft()
            self.inflight[actor.transcribe.remote(job)] = (job, actor)

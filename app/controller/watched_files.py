"""Watch folders in the app: settled new or changed media files become file jobs, once each.

`app.controller.watch_folders.WatchFolders` says which files stopped growing; this skips those a
job is already working on, those the History already holds a transcript of (from a job that
finished after the file's last change, e.g. in an earlier run of the app), those whose transcript
files were written after that change (by another app watching the same shared folder), and those
another app has claimed (`app.archive.watch_claims`: looked at again every few polls until its
transcripts are there or its claim is released or stale), and queues the rest once it holds their
claims. The History (local) is looked at here; `app.controller.background_claims` looks at the
files and their transcript files, and reads and writes the claim files, off the GUI thread. When a
queued file is transcribed, its transcript files are written as its watch folder says
(`app.controller.watch_outputs`), off the GUI thread too (`app.controller.background_writes`), and
then its claim is released; the History entry is made by the controller either way.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from app.archive.watch import DEFAULT_SETTLE_S
from app.archive.watch_claims import STALE_S
from app.controller.background_claims import BackgroundClaims, ClaimAnswer, ClaimAsk
from app.controller.background_writes import BackgroundWrites, WriteAnswer, WriteRequest
from app.controller.job_records import Job
from app.controller.jobs import JobQueue
from app.controller.ports import TranscriptExporter
from app.controller.watch_folders import POLL_MS, WatchFolders
from app.controller.watch_outputs import folder_of
from app.history.entry import EntryKind
from app.history.store import HistoryStore
from app.settings.schema import WatchFolder

log = logging.getLogger(__name__)

RETRY_EVERY_POLLS = 5
"""Held claims are refreshed, and files another app has claimed looked at again, every this many polls."""


@dataclass(frozen=True)
class WatchOptions:
    """`poll_ms`: how often the folders are listed; `settle_s`: seconds a file must stay unchanged
    (size and modification time) before it is queued; `claim_stale_s`: seconds after which another
    machine's claim on a file that it stopped refreshing is taken over."""

    poll_ms: int = POLL_MS
    settle_s: float = DEFAULT_SETTLE_S
    claim_stale_s: float = STALE_S

    def __post_init__(self) -> None:
        if self.poll_ms < 10:
            raise ValueError(f"the watch poll interval must be >= 10 ms, not {self.poll_ms}")
        if self.settle_s < 0:
            raise ValueError(f"the settle time must be >= 0 s, not {self.settle_s}")
        if self.claim_stale_s <= 0:
            raise ValueError(f"the stale time of a claim must be > 0 s, not {self.claim_stale_s}")


class WatchedFiles(QObject):
    """Queues the settled files of `folders` (see `set_folders`) on `jobs`; `queued(paths)` is
    called with what each poll added. `files_not_written(line)`: a transcript's files could not
    all be written (its History entry is kept). `names_shortened(line)`: a transcript's file names
    had to be shortened to fit the folder's file system (the line names them)."""

    files_not_written = Signal(str)
    names_shortened = Signal(str)

    def __init__(
        self,
        jobs: JobQueue,
        history: HistoryStore,
        exporter: TranscriptExporter,
        options: WatchOptions,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.jobs = jobs
        self.history = history
        self.folders: list[WatchFolder] = []
        self._outputs: dict[int, WatchFolder] = {}  # job id -> the watch folder it came from
        self.on_queued: Callable[[list[Path]], object] = lambda _paths: None
        self.watch = WatchFolders([], options.settle_s, options.poll_ms, self)
        self.claims = BackgroundClaims(options.claim_stale_s, self)
        self.writes = BackgroundWrites(exporter, self)
        # files being looked at and claimed off the GUI thread (None: in no watch folder, not claimed)
        self._claiming: dict[Path, WatchFolder | None] = {}
        self._elsewhere: set[Path] = set()  # settled files another app had claimed
        self._polls = 0
        self.watch.files_ready.connect(self._queue)
        self.watch.timer.timeout.connect(self._on_poll)
        self.claims.answered.connect(self._claimed)
        self.writes.written.connect(self._files_written)
        jobs.job_finished.connect(self._write_files)

    def set_folders(self, folders: Sequence[WatchFolder]) -> None:
        """Watch exactly `folders` (none: stop polling); a folder that is missing is polled
        anyway (a network share that is not mounted yet). Jobs already queued keep the formats
        and output folder they were queued with."""
        self.folders = [f for f in folders if f.folder.strip()]
        paths = [Path(f.folder) for f in self.folders]
        unchanged = paths == list(self.watch.watcher.folders) and self.watch.timer.isActive()
        if unchanged:
            return
        self.watch.stop()
        self.watch.set_folders(paths)
        if paths:
            log.info("watching %s", ", ".join(map(str, paths)))
            self.watch.start()

    def stop(self) -> None:
        """Stop watching, finish the transcript files being written, then give up every claim (at
        quit: another app may take those files). Each waits a few seconds at most for a share
        that does not answer; the claims are released on this thread, so before the app exits."""
        self.watch.stop()
        self.writes.stop()  # before the claims: another app that takes a file finds its transcripts
        self.claims.stop()

    def _on_poll(self) -> None:
        self._polls += 1
        if self._polls % RETRY_EVERY_POLLS:
            return
        self.claims.refresh()  # every few polls, well inside STALE_S
        if self._elsewhere:
            self._queue([str(p) for p in sorted(self._elsewhere)])

    def _queue(self, names: list[str]) -> None:
        files: dict[Path, ClaimAsk] = {}
        for path in map(Path, names):
            self._elsewhere.discard(path)
            if path in self._claiming or self._running(path):
                continue  # a file being looked at is answered in _claimed
            # watch None: no longer in a watch folder, so no claim and no transcript files
            files[path] = ClaimAsk(folder_of(path, self.folders), self._in_history(path))
        if files:
            self._claiming.update({path: ask.watch for path, ask in files.items()})
            self.claims.take(files)

    def _claimed(self, answer: ClaimAnswer) -> None:
        for path in answer.elsewhere:
            if path in self._claiming:
                del self._claiming[path]
                self._elsewhere.add(path)  # another app transcribes it: looked at again every few polls
        for path in answer.done:
            self._claiming.pop(path, None)
        self._add_jobs({path: self._claiming.pop(path) for path in answer.taken if path in self._claiming})

    def _add_jobs(self, files: dict[Path, WatchFolder | None]) -> None:
        """Queue `files`, each writing its transcript files as its watch folder (if any) says."""
        if not files:
            return
        log.info("queueing %d watched files", len(files))
        for job in self.jobs.add(list(files)):
            watch = files.get(job.path)
            if watch is not None:
                self._outputs[job.id] = watch
        self.on_queued(list(files))

    def _write_files(self, job: Job) -> None:
        watch = self._outputs.pop(job.id, None)
        if watch is None:
            return  # not from a watch folder
        if job.transcript is None:
            self.claims.release(job.path)  # failed or cancelled: another app may try it
            return
        self.writes.write(WriteRequest(job.path, watch, job.transcript))

    def _files_written(self, answers: list[WriteAnswer]) -> None:
        for answer in answers:
            if answer.result.renamed:
                self.names_shortened.emit(answer.result.renamed)
            if answer.result.problem:
                self.files_not_written.emit(answer.result.problem)
            self.claims.release(answer.media)  # after the files: another app finds them and passes it over

    def _running(self, path: Path) -> bool:
        """True while a job is working on `path`."""
        return any(job.path == path and not job.state.finished for job in self.jobs.jobs.values())

    def _in_history(self, path: Path) -> float | None:
        """When the History's newest transcript of `path` was made (seconds since the epoch), or None."""
        made = [
            entry.created
            for entry in self.history.search(path.name)
            if entry.kind == EntryKind.FILE and entry.source == str(path)
        ]
        return max(made, default=None)

"""Watch folders in the app: settled new or changed media files become file jobs, once each.

`app.controller.watch_folders.WatchFolders` says which files stopped growing; this skips those a
job is already working on and those the History already holds a transcript of (from a job that
finished after the file's last change, e.g. in an earlier run of the app), and queues the rest.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject

from app.archive.watch import DEFAULT_SETTLE_S
from app.controller.jobs import JobQueue
from app.controller.watch_folders import POLL_MS, WatchFolders
from app.history.entry import EntryKind
from app.history.store import HistoryStore

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class WatchOptions:
    """`poll_ms`: how often the folders are listed; `settle_s`: seconds a file must stay unchanged
    (size and modification time) before it is queued."""

    poll_ms: int = POLL_MS
    settle_s: float = DEFAULT_SETTLE_S

    def __post_init__(self) -> None:
        if self.poll_ms < 10:
            raise ValueError(f"the watch poll interval must be >= 10 ms, not {self.poll_ms}")
        if self.settle_s < 0:
            raise ValueError(f"the settle time must be >= 0 s, not {self.settle_s}")


class WatchedFiles(QObject):
    """Queues the settled files of `folders` (see `set_folders`) on `jobs`; `queued(paths)` is
    called with what each poll added."""

    def __init__(self, jobs: JobQueue, history: HistoryStore, options: WatchOptions,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.jobs = jobs
        self.history = history
        self.on_queued: Callable[[list[Path]], object] = lambda _paths: None
        self.watch = WatchFolders([], options.settle_s, options.poll_ms, self)
        self.watch.files_ready.connect(self._queue)

    def set_folders(self, folders: Sequence[str]) -> None:
        """Watch exactly `folders` (none: stop polling); a folder that is missing is polled
        anyway (a network share that is not mounted yet)."""
        paths = [Path(f) for f in folders if f.strip()]
        unchanged = paths == list(self.watch.watcher.folders) and self.watch.timer.isActive()
        if unchanged:
            return
        self.watch.stop()
        self.watch.set_folders(paths)
        if paths:
            log.info("watching %s", ", ".join(map(str, paths)))
            self.watch.start()

    def stop(self) -> None:
        self.watch.stop()

    def _queue(self, names: list[str]) -> None:
        fresh = [Path(n) for n in names if not self._already_handled(Path(n))]
        if fresh:
            log.info("queueing %d watched files", len(fresh))
            self.jobs.add(fresh)
            self.on_queued(fresh)

    def _already_handled(self, path: Path) -> bool:
        """Being transcribed now, or transcribed after its last change (the History says so)."""
        if any(job.path == path and not job.state.finished for job in self.jobs.jobs.values()):
            return True
        try:
            changed = path.stat().st_mtime
        except OSError:
            return True  # gone since it settled: nothing to queue
        return any(entry.kind == EntryKind.FILE and entry.source == str(path) and entry.created >= changed
                   for entry in self.history.search(path.name))

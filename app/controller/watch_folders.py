"""The app's watch folders: polls `app.archive.watch.FolderWatcher` on a timer and says which
files are ready to queue (new or changed, no longer growing)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal

from app.archive.watch import DEFAULT_SETTLE_S, FolderWatcher

POLL_MS = 2000


class WatchFolders(QObject):
    """Emits `files_ready(list of paths as str)` for each batch of settled files."""

    files_ready = Signal(list)

    def __init__(self, folders: Sequence[Path], settle_s: float = DEFAULT_SETTLE_S, poll_ms: int = POLL_MS,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.watcher = FolderWatcher(list(folders), settle_s)
        self.timer = QTimer(self)
        self.timer.setInterval(poll_ms)
        self.timer.timeout.connect(self.poll)

    def start(self) -> None:
        self.watcher.poll()  # files already there start settling now
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def set_folders(self, folders: Sequence[Path]) -> None:
        self.watcher.folders = list(folders)

    def poll(self) -> None:
        ready = self.watcher.poll()
        if ready:
            self.files_ready.emit([str(p) for p in ready])

"""The app's watch folders: polls `app.archive.watch.FolderWatcher` on a timer and says which
files are ready to queue (new or changed, no longer growing). Each scan runs off the GUI thread
(a watched archive can hold thousands of files), one at a time."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal

from app.archive.watch import DEFAULT_SETTLE_S, FolderWatcher
from app.controller.background import BackgroundCall

POLL_MS = 2000


class WatchFolders(QObject):
    """Emits `files_ready(list of paths as str)` for each batch of settled files."""

    files_ready = Signal(list)

    def __init__(
        self,
        folders: Sequence[Path],
        settle_s: float = DEFAULT_SETTLE_S,
        poll_ms: int = POLL_MS,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.watcher = FolderWatcher(list(folders), settle_s)
        self.timer = QTimer(self)
        self.timer.setInterval(poll_ms)
        self.timer.timeout.connect(self.poll)
        self._scan = BackgroundCall(self.watcher.poll, self)  # one call, started again each tick
        self._scan.succeeded.connect(self._scanned)

    def start(self) -> None:
        self.poll()  # files already there start settling now
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def set_folders(self, folders: Sequence[Path]) -> None:
        self.watcher.folders = list(folders)

    def poll(self) -> None:
        """Start a scan unless one is still running (a slow disk skips a tick instead of piling up)."""
        if not self._scan.running:
            self._scan.start()

    def _scanned(self, ready: object) -> None:
        if isinstance(ready, list) and ready and self.timer.isActive():
            self.files_ready.emit([str(p) for p in ready])

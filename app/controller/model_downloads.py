"""Model downloads off the GUI thread: one worker thread per download, results as Qt signals.

The UI only renders: it calls `start(name)` / `cancel(name)` and listens to `progress`,
`finished`, `failed` and `cancelled` (all delivered on the GUI thread). huggingface_hub is
imported by the worker thread of the first download, not when the app starts.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal

from app.engine.types import Precision

if TYPE_CHECKING:
    from app.engine.models.download_progress import Progress

log = logging.getLogger(__name__)


class ModelDownloads(QObject):
    """Running downloads by installed name. `mirror` and `token` (Settings > Download models; "" = the
    environment's HF_ENDPOINT / HF_TOKEN) are read at each start."""

    progress = Signal(str, object)  # name, Progress
    finished = Signal(str)  # name: installed and converted
    failed = Signal(str, str)  # name, one-line reason
    cancelled = Signal(str)  # name: nothing left behind
    checked = Signal(str, object)  # name, MachineCheck: one 30 s window timed on this machine
    _progress = Signal(str, object)
    _ended = Signal(str, str, str)  # name, outcome ("ok" / "failed" / "cancelled"), message

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.mirror = ""
        self.token = ""
        self._running: dict[str, threading.Event] = {}
        self._progress.connect(self.progress, Qt.ConnectionType.QueuedConnection)
        self._ended.connect(self._on_ended, Qt.ConnectionType.QueuedConnection)

    def running(self, name: str) -> bool:
        return name in self._running

    def start(self, name_or_repo: str, precision: Precision = Precision.AUTO) -> str:
        """Start downloading (returns at once); the installed name the signals will carry."""
        from app.engine.models.catalog import resolve_download  # the model store and NumPy: not at start-up

        repo, name = resolve_download(name_or_repo)
        if name in self._running:
            return name
        cancel = threading.Event()
        self._running[name] = cancel
        args = (repo, name, precision, cancel, self.mirror, self.token)
        threading.Thread(target=self._run, args=args, name=f"earshot-download-{name}", daemon=True).start()
        return name

    def cancel(self, name: str) -> None:
        if event := self._running.get(name):
            event.set()

    def cancel_all(self) -> None:
        for event in self._running.values():
            event.set()

    def _run(
        self, repo: str, name: str, precision: Precision, cancel: threading.Event, mirror: str, token: str
    ) -> None:
        def report(progress: Progress) -> None:
            with contextlib.suppress(RuntimeError):  # the window closed meanwhile
                self._progress.emit(name, progress)

        from app.engine.models.download_progress import DownloadCancelled
        from app.engine.models.downloader import DownloadRequest, download_model
        from app.engine.models.hub import DownloadError, HubOptions
        from app.engine.models.store import ModelStore

        try:
            request = DownloadRequest(repo, name, precision, HubOptions(mirror, token), cancel)
            download_model(request, ModelStore(), report)
            outcome, message = "ok", ""
            self._check_machine(name, precision)
        except DownloadCancelled:
            outcome, message = "cancelled", ""
        except DownloadError as exc:  # already logged with its traceback by the downloader
            outcome, message = "failed", str(exc)
        except Exception as exc:  # conversion or import failures: a message, never a crash
            log.exception("installing %s failed", name)
            outcome, message = "failed", str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        with contextlib.suppress(RuntimeError):
            self._ended.emit(name, outcome, message)

    def check_machine(self, names: list[str], precision: Precision = Precision.AUTO) -> None:
        """Time one 30 s window for each of `names` in one background thread (cached results return at once)."""

        def run() -> None:
            for name in names:
                self._check_machine(name, precision)

        threading.Thread(target=run, name="earshot-machine-check", daemon=True).start()

    def _check_machine(self, name: str, precision: Precision) -> None:
        from app.engine.models.machine_check import check_model

        try:
            result = check_model(name, precision)
        except Exception:  # the model is installed; only the measurement is missing
            log.exception("timing %s on this machine failed", name)
            return
        with contextlib.suppress(RuntimeError):
            self.checked.emit(name, result)

    def _on_ended(self, name: str, outcome: str, message: str) -> None:
        self._running.pop(name, None)
        if outcome == "ok":
            self.finished.emit(name)
        elif outcome == "cancelled":
            self.cancelled.emit(name)
        else:
            self.failed.emit(name, message)

"""Runs keyboard output on its own thread, in order, so typing never blocks the GUI."""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable

from app.desktop.typing.base import KeyboardBackend, OutputError, WindowGuardedKeyboard
from app.desktop.typing.select import open_keyboard

_Job = Callable[[KeyboardBackend], None]
_Marker = Callable[[], None]  # a job that needs no backend (wait_idle)


log = logging.getLogger(__name__)


class OutputWorker:
    """Types text and presses keys in the order asked, on one thread.

    The backend opens on first use (on that thread); when it cannot, or a job fails, `on_error`
    gets the user-facing message (from the worker thread) and the next job tries again.
    `after` callbacks run on the worker thread once their keys are sent.
    """

    def __init__(
        self,
        on_error: Callable[[str], None],
        open_backend: Callable[[], KeyboardBackend] = open_keyboard,
    ) -> None:
        self._on_error = on_error
        self._open_backend = open_backend
        self._backend: KeyboardBackend | None = None
        self._jobs: queue.Queue[tuple[_Job | None, _Marker | None] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="earshot-output", daemon=True)
        self._thread.start()

    def type_text(self, text: str, window: int | None = None) -> None:
        """Type `text`; with `window` (an X11 window id), only while that window has the focus,
        where the backend can tell (`WindowGuardedKeyboard`)."""

        def job(backend: KeyboardBackend) -> None:
            if window is not None and isinstance(backend, WindowGuardedKeyboard):
                backend.type_text_into(text, window)
            else:
                backend.type_text(text)

        if text:
            self._jobs.put((job, None))

    def send_keys(self, chord: str, after: Callable[[bool], None] | None = None, window: int | None = None) -> None:
        """Press `chord` (into `window` only, as `type_text`); `after(sent)` follows on the worker
        thread (sent False on failure)."""

        def job(backend: KeyboardBackend) -> None:
            try:
                if window is not None and isinstance(backend, WindowGuardedKeyboard):
                    backend.send_keys_into(chord, window)
                else:
                    backend.send_keys(chord)
            except OutputError:
                if after is not None:
                    after(False)
                raise
            if after is not None:
                after(True)

        self._jobs.put((job, None))

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until every job asked so far is done; False on timeout."""
        done = threading.Event()
        self._jobs.put((None, done.set))
        return done.wait(timeout)

    def close(self, timeout: float = 5.0) -> None:
        """Finish the queued jobs, close the backend (X11: give spare keycodes back), stop."""
        self._jobs.put(None)
        self._thread.join(timeout)

    def _run(self) -> None:
        while (item := self._jobs.get()) is not None:
            job, marker = item
            if marker is not None:
                marker()
            if job is None:
                continue
            try:
                if self._backend is None:
                    self._backend = self._open_backend()
                job(self._backend)
            except OutputError as exc:
                self._on_error(str(exc))
            except Exception as exc:  # a broken display connection, ...: report, keep serving
                log.exception("typing failed")
                self._on_error(f"Typing failed: {exc}")
                self._drop_backend()
        self._drop_backend()

    def _drop_backend(self) -> None:
        if self._backend is not None:
            try:
                self._backend.close()
            finally:
                self._backend = None

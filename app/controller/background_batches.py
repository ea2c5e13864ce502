"""Work asked for on the GUI thread and done off it, one batch at a time: requests made while a
batch runs gather into the next, so whatever the batches touch is used by one thread at a time,
and the GUI thread only hears each batch's answer. The watch folders' claims and transcript
writes (`background_claims`, `background_writes`) are such work: their folders are often on a
network share, where one file operation can take seconds."""

from __future__ import annotations

from typing import Generic, TypeVar

from PySide6.QtCore import QObject

from app.controller.background import BackgroundCall

R = TypeVar("R")
"""A batch's requests: false when there are none."""


class BackgroundBatches(QObject, Generic[R]):
    """Requests of type `R` gathered in `_asked` (GUI thread); `_run_batch` does `_doing` off it,
    and its answer comes to `_deliver` on the GUI thread unless `stop` came first."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._asked: R = self._no_requests()
        self._doing: R = self._no_requests()
        self._stopped = False
        self._call = BackgroundCall(self._run_batch, self)
        self._call.succeeded.connect(self._answered)
        self._call.failed.connect(self._batch_failed)

    def _no_requests(self) -> R:
        raise NotImplementedError

    def _run_batch(self) -> object:
        """Off the GUI thread: do `_doing`, return the answer for `_deliver`."""
        raise NotImplementedError

    def _deliver(self, answer: object) -> None:
        """On the GUI thread: tell the listeners what a batch did."""
        raise NotImplementedError

    def _batch_failed(self, message: str) -> None:
        """On the GUI thread: `_run_batch` raised (a bug); `message` names the error."""
        raise NotImplementedError

    def _next(self) -> None:
        """Start the next batch with the requests gathered, unless one runs or the work stopped."""
        if self._stopped or self._call.running or not self._asked:
            return
        self._doing, self._asked = self._asked, self._no_requests()
        self._call.start()

    def _answered(self, answer: object) -> None:
        if self._stopped:
            return  # at quit, `stop` deals with what the batch did
        self._deliver(answer)
        self._next()

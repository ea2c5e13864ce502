"""The transcript files of watched files (`app.controller.watch_outputs`), written off the GUI
thread: they go to the watch folders, often on a network share, where one write can take seconds.

Requests made while a batch runs gather into the next batch; the GUI thread only hears what each
batch wrote. At quit the writes asked for are finished first (for up to STOP_WAIT_S), so that no
transcript the History holds is left without its files.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from app.controller.background_batches import BackgroundBatches
from app.controller.ports import FileTranscript, TranscriptExporter
from app.controller.watch_outputs import WrittenFiles, write_transcript_files
from app.settings.schema import WatchFolder

log = logging.getLogger(__name__)

STOP_WAIT_S = 5.0
"""Seconds the quit waits for the writes asked for; a file left unwritten then is not there for
another app, which transcribes the media again once this app's claim on it is released."""


@dataclass(frozen=True)
class WriteRequest:
    """Write the files `watch` asks for of `transcript`, the transcript of the watched file `media`."""

    media: Path
    watch: WatchFolder
    transcript: FileTranscript


@dataclass(frozen=True)
class WriteAnswer:
    """What was written for the watched file `media`."""

    media: Path
    result: WrittenFiles


class BackgroundWrites(BackgroundBatches[list[WriteRequest]]):
    """`written(list[WriteAnswer])` on the GUI thread for each batch."""

    written = Signal(object)

    def __init__(self, exporter: TranscriptExporter, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.exporter = exporter

    def write(self, request: WriteRequest) -> None:
        self._asked.append(request)
        self._next()

    def stop(self) -> bool:
        """Finish the writes asked for and take no more (at quit), waiting up to STOP_WAIT_S
        seconds in all; their answers are not delivered. False when some are still unwritten."""
        self._stopped = True
        deadline = time.monotonic() + STOP_WAIT_S
        while self._call.wait(max(0.0, deadline - time.monotonic())):
            if not self._asked:
                return True
            self._doing, self._asked = self._asked, []
            self._call.start()
        log.warning("transcript files of watched files are left unwritten: their folder does not answer")
        return False

    def _no_requests(self) -> list[WriteRequest]:
        return []

    def _run_batch(self) -> list[WriteAnswer]:
        return [WriteAnswer(request.media, self._write(request)) for request in self._doing]

    def _write(self, request: WriteRequest) -> WrittenFiles:
        try:
            result = write_transcript_files(self.exporter, request.watch, request.transcript)
        except Exception as error:  # a bug, not a full disk (that is an ExportError): the rest are still written
            log.exception("the transcript files of %s were not written", request.media)
            return _not_written(request.media, str(error) or type(error).__name__)
        if not result.problem:
            log.info("wrote %s", ", ".join(map(str, result.written)))
        return result

    def _batch_failed(self, message: str) -> None:
        self._answered([WriteAnswer(request.media, _not_written(request.media, message)) for request in self._doing])

    def _deliver(self, answers: object) -> None:
        if isinstance(answers, list) and answers:
            self.written.emit(answers)


def _not_written(media: Path, message: str) -> WrittenFiles:
    return WrittenFiles([], f"{media.name}: the transcript is in the History only. {message}.")

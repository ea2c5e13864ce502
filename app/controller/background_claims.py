"""This app's claims on watched files (`app.archive.watch_claims`), taken, refreshed and released
off the GUI thread: the claim files lie in the watch folders' transcript folders, often on a
network share, where one create or delete can take seconds. The same batch first looks at each
file to claim (its modification time, and whether its transcript files were written since), as
that is a stat on the share too; the History, local, is looked at by the GUI thread beforehand.

Requests made while a batch runs gather into the next batch, so the claims are used by one thread
at a time; the GUI thread only hears which files it now holds. At quit every claim is released on
the quitting thread, after the batch that runs has returned.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from app.archive.watch_claims import WatchClaims
from app.controller.background_batches import BackgroundBatches
from app.controller.watch_outputs import transcript_folder, transcripts_written_since
from app.settings.schema import WatchFolder

log = logging.getLogger(__name__)

STOP_WAIT_S = 5.0
"""Seconds the quit waits for a batch still running; a claim left behind then is stale as soon as
this process has gone (for apps on this machine) or after the stale time (for other machines)."""


@dataclass(frozen=True)
class ClaimAsk:
    """A file to claim: `watch`, the watch folder it came from (None: it is in none any more, so it
    is looked at but not claimed); `in_history`, when the History's newest transcript of it was
    made (seconds since the epoch; None: it holds none). A file not changed since is not claimed."""

    watch: WatchFolder | None
    in_history: float | None = None


@dataclass
class ClaimRequests:
    """Claim work for one batch, done in this order: claims to release, whether to refresh the
    held ones, files to look at and claim."""

    release: list[Path] = field(default_factory=list)
    refresh: bool = False
    take: dict[Path, ClaimAsk] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.release or self.refresh or self.take)


@dataclass
class ClaimAnswer:
    """What became of the files a batch was asked to claim: `taken` (this app holds them: queue
    them; or they need no claim), `elsewhere` (another app holds them) and `done` (transcribed
    already, or gone)."""

    taken: list[Path] = field(default_factory=list)
    elsewhere: list[Path] = field(default_factory=list)
    done: list[Path] = field(default_factory=list)


class BackgroundClaims(BackgroundBatches[ClaimRequests]):
    """`answered(ClaimAnswer)` on the GUI thread for each batch that claimed files."""

    answered = Signal(object)

    def __init__(self, stale_s: float, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.claims = WatchClaims(stale_s)

    def take(self, files: dict[Path, ClaimAsk]) -> None:
        self._asked.take.update(files)
        self._next()

    def refresh(self) -> None:
        self._asked.refresh = True
        self._next()

    def release(self, media: Path) -> None:
        self._asked.release.append(media)
        self._next()

    def stop(self) -> None:
        """Release every claim now, on this thread, and take no more requests (at quit: another
        app may take those files at once). Waits up to STOP_WAIT_S for the batch that runs."""
        self._stopped = True
        self._asked = ClaimRequests()
        if self._call.wait(STOP_WAIT_S):
            self.claims.release_all()
        else:
            log.warning("the claims on watched files are left to go stale: the claim folder does not answer")

    def _no_requests(self) -> ClaimRequests:
        return ClaimRequests()

    def _run_batch(self) -> ClaimAnswer:
        work, answer = self._doing, ClaimAnswer()
        for media in work.release:
            self.claims.release(media)
        if work.refresh:
            self.claims.refresh()
        for media, ask in work.take.items():
            self._take(media, ask, answer)
        return answer

    def _take(self, media: Path, ask: ClaimAsk, answer: ClaimAnswer) -> None:
        """Claim `media` unless it is transcribed already: looked at before the claim (a file
        transcribed before is passed over without a claim file) and again after it."""
        if _transcribed(media, ask):
            answer.done.append(media)
        elif ask.watch is None:
            answer.taken.append(media)  # in no watch folder: nothing to claim
        elif not self.claims.take(media, transcript_folder(ask.watch, media)):
            answer.elsewhere.append(media)
        elif _transcribed(media, ask):
            self.claims.release(media)
            answer.done.append(media)
        else:
            answer.taken.append(media)

    def _batch_failed(self, _message: str) -> None:
        # a bug, not a slow disk (take, refresh and release log their OSErrors): its files are
        # looked at again with those claimed elsewhere
        self._answered(ClaimAnswer(elsewhere=list(self._doing.take)))

    def _deliver(self, answer: object) -> None:
        if isinstance(answer, ClaimAnswer) and (answer.taken or answer.elsewhere or answer.done):
            self.answered.emit(answer)


def _transcribed(media: Path, ask: ClaimAsk) -> bool:
    """True when `media` is gone, or was transcribed after its last change: the History says so,
    or the transcript files `ask.watch` asks for were written since, by this app before its
    History was cleared or by another app watching the same folder (an app writes its
    transcripts before it releases its claim, so a claim taken after that release finds them)."""
    try:
        changed = media.stat().st_mtime
    except OSError:
        return True  # gone since it settled: nothing to queue
    if ask.in_history is not None and ask.in_history >= changed:
        return True
    return ask.watch is not None and transcripts_written_since(ask.watch, media, changed)

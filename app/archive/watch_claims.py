"""Claims on watched files, for apps that watch one shared folder (two users, two machines).

Each app keeps its own History, so nothing else would stop every app from transcribing every
file that lands in a shared folder. Before an app queues a file it creates a claim file,
`.<media name>.earshot-claim`, in the folder its transcripts go to; the create is exclusive
(`O_EXCL`, atomic on local disks, NFSv3+ and SMB), so one app wins and the others pass the file
over. The holder refreshes the claim's modification time while it holds it and deletes it once the
file's job has ended (its transcripts written, or the job failed or was cancelled).

A claim is taken over when it is stale: its holder is a process on this machine that no longer
runs (a crash, kill -9), or it has not been refreshed for `stale_s` seconds (a holder on another
machine that was switched off). Two apps that find the same stale claim in the same instant may
both take it over; the cost is one file transcribed twice, never one lost.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from dataclasses import dataclass
from pathlib import Path

from app.engine.export.file_names import fitted_name, name_max

log = logging.getLogger(__name__)

CLAIM_SUFFIX = ".earshot-claim"
STALE_S = 120.0
"""Seconds without a refresh after which a claim from another machine is stale (holders refresh
on every watch poll, every few seconds)."""


def claim_path(media: Path, folder: Path) -> Path:
    """The claim on `media` kept in `folder` (where its transcripts go): hidden, and not a media
    file, so no watcher lists it. For a media name near the file system's limit the name is
    shortened to fit, the same way in every app (`app.engine.export.file_names`)."""
    return folder / fitted_name(f".{media.name}", CLAIM_SUFFIX, name_max(folder))


@dataclass(frozen=True)
class Holder:
    """Who holds a claim: a host name and a process id."""

    host: str
    pid: int

    @classmethod
    def this_process(cls) -> Holder:
        return cls(socket.gethostname(), os.getpid())

    @classmethod
    def parse(cls, text: str) -> Holder | None:
        """The holder written in a claim; None for a claim that is empty or damaged."""
        host, _, pid = text.strip().rpartition(" ")
        return cls(host, int(pid)) if host and pid.isdigit() else None

    def line(self) -> str:
        return f"{self.host} {self.pid}\n"

    def is_gone(self) -> bool:
        """True when the holder ran on this machine and its process no longer exists."""
        if self.host != socket.gethostname():
            return False  # another machine's processes cannot be asked: its claim ages out instead
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return True
        except OSError:
            return False  # it exists (another user's process)
        return False


class WatchClaims:
    """The claims this app holds, keyed by media file. Not thread-safe: one thread at a time uses it."""

    def __init__(self, stale_s: float = STALE_S, holder: Holder | None = None) -> None:
        if stale_s <= 0:
            raise ValueError(f"the stale time of a claim must be > 0 s, not {stale_s}")
        self.stale_s = stale_s
        self.holder = holder or Holder.this_process()
        self.held: dict[Path, Path] = {}  # media -> its claim file

    def take(self, media: Path, folder: Path) -> bool:
        """Claim `media`, its transcripts going to `folder` (made if missing). False when another
        live holder has it. True when taken, and also when no claim can be made there (a folder
        this user may not write to): the app then goes on, and writing the transcripts says why."""
        if media in self.held:
            return True
        path = claim_path(media, folder)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            log.warning("no claim on %s could be made in %s", media, folder, exc_info=True)
            return True
        for _attempt in range(2):
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                if path.exists() and not path.is_file():  # a folder (or a device) where the claim goes
                    log.warning("%s is not a claim file: %s is transcribed without a claim", path, media)
                    return True
                if not self._stale(path):
                    return False
                log.info("taking over the stale claim %s", path)
                try:
                    path.unlink(missing_ok=True)
                except OSError:  # a sticky folder: only its owner may delete it
                    log.warning("the stale claim %s could not be deleted", path, exc_info=True)
                    return False
                continue
            except OSError:
                log.warning("no claim on %s could be made in %s", media, folder, exc_info=True)
                return True
            with os.fdopen(fd, "w", encoding="utf-8") as claim:
                claim.write(self.holder.line())
            self.held[media] = path
            return True
        return False

    def refresh(self) -> None:
        """Mark every held claim as alive now (its modification time)."""
        for media, path in list(self.held.items()):
            try:
                os.utime(path)
            except OSError:
                log.warning("the claim on %s could not be refreshed", media, exc_info=True)

    def release(self, media: Path) -> None:
        """Delete the claim on `media`, if this app holds one."""
        path = self.held.pop(media, None)
        if path is None:
            return
        try:
            path.unlink(missing_ok=True)
        except OSError:
            log.warning("the claim %s could not be deleted", path, exc_info=True)

    def release_all(self) -> None:
        for media in list(self.held):
            self.release(media)

    def _stale(self, path: Path) -> bool:
        try:
            age = time.time() - path.stat().st_mtime
        except FileNotFoundError:
            return True  # released meanwhile: create it again
        except OSError:
            log.warning("the claim %s cannot be read", path, exc_info=True)
            return False
        try:
            holder = Holder.parse(path.read_text(encoding="utf-8", errors="replace"))
        except OSError:  # another user's claim this user may not read: its age says
            return age > self.stale_s
        if holder is None:
            return age > 5.0  # being written right now, or damaged (then it ages out soon)
        return age > self.stale_s or holder.is_gone()

"""Crash recovery for live dictation: the session's recent audio, journaled to disk as it arrives.

While a session runs, a relay thread (`app.dictation.journaled_source`; never the PortAudio
callback) appends the captured audio, at 16 kHz, to a ring of raw segment files
(`seg-<first sample>.pcm`, int16 little-endian, mono) in
`<data dir>/recovery/session-<time>-<id>/`, private (0600 files in 0700 folders). Each commit
moves a mark (`committed`: the session sample up to which the text is stored), and segments that
lie wholly before the mark, or before the last `keep_s`, are deleted: the journal holds only audio
whose text is not safe yet, bounded. A session that ends cleanly deletes its folder; one that was
killed leaves it, and `find_leftovers` offers it on the next start. A live session holds an
exclusive `flock` on its folder's `lock` file, so it is never mistaken for a leftover.
"""

from __future__ import annotations

import errno
import logging
import os
import shutil
import threading
import time
import uuid
import wave
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from app import user_dirs
from app.engine.types import SAMPLE_RATE
from app.private_files import FILE_MODE, private_dir, try_lock

if TYPE_CHECKING:  # NumPy is imported where audio is handled: finding leftovers at start-up needs none
    import numpy as np
    from numpy.typing import NDArray

log = logging.getLogger(__name__)

MIN_LEFTOVER_S = 0.5
"""Less un-transcribed audio than this is not worth offering."""


def recovery_dir() -> Path:
    """<user data dir>/recovery (EARSHOT_DATA_DIR overrides the data dir)."""
    return user_dirs.data_dir() / "recovery"


@dataclass(frozen=True)
class JournalOptions:
    """`segment_s`: seconds per segment file; `keep_s`: at most this much audio is kept."""

    segment_s: float = 30.0
    keep_s: float = 600.0

    def __post_init__(self) -> None:
        if not 0 < self.segment_s <= self.keep_s:
            raise ValueError(f"need 0 < segment_s <= keep_s, got {self.segment_s}, {self.keep_s}")


class AudioJournal:
    """The journal of one session. `write` (the relay thread) and `mark_committed`, `close` and
    `discard` (the worker's) may come from different threads: a lock keeps them apart."""

    def __init__(self, root: Path, options: JournalOptions = JournalOptions(), entry_id: int | None = None) -> None:
        """`entry_id`: the History entry of the session (its recovered text goes there)."""
        self.options = options
        name = f"session-{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:6]}"
        self.folder = private_dir(root / name)
        self._lock_fd: int | None = _open_private(self.folder / "lock")
        try_lock(self._lock_fd)
        if entry_id is not None:
            fd = _open_private(self.folder / "entry", truncate=True)
            try:
                os.write(fd, str(entry_id).encode())
            finally:
                os.close(fd)
        self._segment = int(options.segment_s * SAMPLE_RATE)
        self._keep = int(options.keep_s * SAMPLE_RATE)
        self._written = 0  # session samples journaled
        self._committed = 0  # session samples whose text is stored
        self._fd: int | None = None
        self._closed = False
        self._lock = threading.Lock()

    def write(self, audio: NDArray[np.float32]) -> None:
        """Append 16 kHz mono float32 audio, shape (n,), split across segment files. A disk
        error stops the journal (logged), never the dictation."""
        with self._lock:
            try:
                self._write(audio)
            except OSError:
                log.exception("The dictation audio journal %s stopped", self.folder)
                self._close()

    def _write(self, audio: NDArray[np.float32]) -> None:
        import numpy as np

        pcm = (np.clip(audio, -1.0, 1.0) * 32767.0).astype("<i2")
        while pcm.size and not self._closed:
            room = self._segment - self._written % self._segment
            if self._fd is None or room == self._segment:
                self._start_segment()
            assert self._fd is not None
            os.write(self._fd, pcm[:room].tobytes())  # the OS keeps it through a kill of this process
            self._written += min(room, pcm.size)
            pcm = pcm[room:]

    def mark_committed(self, end_s: float) -> None:
        """Text up to session second `end_s` is stored: the audio before it is not needed."""
        with self._lock:
            mark = min(self._written, int(end_s * SAMPLE_RATE))
            if mark <= self._committed or self._closed:
                return
            self._committed = mark
            try:
                self._store_mark(mark)
            except OSError:
                log.exception("The dictation audio journal %s stopped", self.folder)
                self._close()

    def _store_mark(self, mark: int) -> None:
        tmp = self.folder / "committed.tmp"
        fd = _open_private(tmp, truncate=True)
        try:
            os.write(fd, str(mark).encode())
        finally:
            os.close(fd)
        tmp.replace(self.folder / "committed")
        self._drop_old()

    def close(self) -> None:
        """Stop writing and let go of the folder: the files stay, a leftover for the next start."""
        with self._lock:
            self._close()

    def _close(self) -> None:
        self._closed = True
        for fd in (self._fd, self._lock_fd):
            if fd is not None:
                os.close(fd)
        self._fd = self._lock_fd = None

    def discard(self) -> None:
        """The session's text is safe: delete its audio."""
        self.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def _start_segment(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
        self._fd = _open_private(self.folder / f"seg-{self._written:012d}.pcm")
        self._drop_old()

    def _drop_old(self) -> None:
        """Delete segments that end at or before max(committed mark, written - keep_s)."""
        needed_from = max(self._committed, self._written - self._keep)
        for start, path in _segments(self.folder):
            if start + self._segment <= needed_from and start + self._segment <= self._written:
                path.unlink(missing_ok=True)


@dataclass(frozen=True)
class LeftoverAudio:
    """Audio a killed session journaled after its last stored text. Times in seconds."""

    folder: Path
    start_s: float
    duration_s: float
    entry_id: int | None = None
    """The History entry of the killed session (None: a journal of an older Earshot)."""

    def audio(self) -> NDArray[np.float32]:
        """The un-transcribed audio, 16 kHz mono float32, shape (n,)."""
        import numpy as np

        start = int(self.start_s * SAMPLE_RATE)
        parts = []
        for first, path in _segments(self.folder):
            try:
                data = path.read_bytes()
            except OSError:  # one damaged segment: offer the others
                log.warning("Could not read %s of a dictation journal", path, exc_info=True)
                continue
            pcm = np.frombuffer(data[: len(data) // 2 * 2], dtype="<i2")  # a kill can cut a sample in two
            parts.append(pcm[max(0, start - first) :] if first < start else pcm)
        joined = np.concatenate(parts) if parts else np.zeros(0, dtype="<i2")
        return (joined.astype(np.float32) / 32768.0).astype(np.float32)

    def write_wav(self, path: Path) -> Path:
        """Save the audio as a 16-bit WAV (0600) for a file job."""
        private_dir(path.parent)
        _open_private_and_close(path)
        import numpy as np

        pcm = (np.clip(self.audio(), -1.0, 1.0) * 32767.0).astype("<i2")
        with wave.open(str(path), "wb") as wav:
            wav.setnchannels(1)
            wav.setsampwidth(2)
            wav.setframerate(SAMPLE_RATE)
            wav.writeframes(pcm.tobytes())
        return path

    def discard(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


def find_leftovers(root: Path) -> list[LeftoverAudio]:
    """Journals of sessions that did not end cleanly (none of a live session), oldest first.
    Ones with less than `MIN_LEFTOVER_S` of un-transcribed audio are deleted."""
    found = []
    for folder in sorted(root.glob("session-*")) if root.is_dir() else []:
        try:
            leftover = _leftover(folder)
        except OSError:
            log.exception("Could not read the dictation journal %s", folder)
            continue
        if leftover is None:
            continue
        if leftover.duration_s < MIN_LEFTOVER_S:
            leftover.discard()
        else:
            found.append(leftover)
    return found


def _leftover(folder: Path) -> LeftoverAudio | None:
    if not folder.is_dir():
        return None  # not a journal (a stray file of that name)
    lock = folder / "lock"
    if lock.exists():
        fd = os.open(lock, os.O_RDWR)
        try:
            if not try_lock(fd):
                return None  # a running session's journal
        finally:
            os.close(fd)
    committed = _committed_mark(folder / "committed")
    segments = _segments(folder)
    if unreadable := [path.name for _first, path in segments if not os.access(path, os.R_OK)]:
        # left by another user (`sudo earshot`): not offered, never deleted with the rest once the
        # readable part is transcribed; offered again once this user may read it
        raise PermissionError(errno.EACCES, f"this user may not read {', '.join(unreadable)}", str(folder))
    end = max((first + path.stat().st_size // 2 for first, path in segments), default=0)
    start = max(committed, segments[0][0] if segments else 0)
    entry_file = folder / "entry"
    entry = entry_file.read_text().strip() if entry_file.exists() else ""
    return LeftoverAudio(
        folder, start / SAMPLE_RATE, max(0, end - start) / SAMPLE_RATE, int(entry) if entry.isdigit() else None
    )


def _committed_mark(path: Path) -> int:
    """The session sample up to which the text is stored; 0 (offer all the audio: nothing is
    lost, some may be offered twice) when the mark is missing, unreadable or damaged."""
    if not path.exists():
        return 0
    try:
        return max(0, int(path.read_text(encoding="ascii").strip() or 0))
    except (OSError, ValueError):
        log.warning("The dictation journal's mark %s is damaged: all its audio is offered", path, exc_info=True)
        return 0


def _segments(folder: Path) -> list[tuple[int, Path]]:
    """(first session sample, path) of each segment file, in order."""
    found = []
    for path in folder.glob("seg-*.pcm"):
        try:
            if not path.is_file():
                raise ValueError("not a file")
            found.append((int(path.stem[4:]), path))
        except ValueError:
            log.warning("Ignoring a stray file in the dictation journal: %s", path)
    return sorted(found)


def _open_private(path: Path, truncate: bool = False) -> int:
    flags = os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if truncate else os.O_APPEND)
    return os.open(path, flags, FILE_MODE)


def _open_private_and_close(path: Path) -> None:
    os.close(_open_private(path, truncate=True))

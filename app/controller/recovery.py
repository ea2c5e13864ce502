"""Crash recovery of dictation audio: the journals a killed dictation left, transcribed as file jobs.

A dictation journals its audio (`app.dictation.audio_journal`) until its words are stored; one the
app was killed during leaves its journal behind. `DictationRecovery` lists those, writes one as a
WAV and queues it as a file job, puts the job's words into the killed session's History entry and
deletes the journal once that is done. The app controller owns it and hands it the jobs it runs.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from app.controller.jobs import JobQueue
from app.controller.ports import FileTranscript
from app.dictation.audio_journal import LeftoverAudio, find_leftovers
from app.history.store import EntryKind, HistoryStore, TimedText

log = logging.getLogger(__name__)


class DictationRecovery:
    """The leftover dictation audio in `root` and the file jobs that transcribe it."""

    def __init__(self, root: Path, jobs: JobQueue, history: HistoryStore, history_changed: Callable[[], None]) -> None:
        self.root = root
        self.jobs = jobs
        self.history = history
        self.history_changed = history_changed
        self._recovering: dict[int, tuple[LeftoverAudio, Path]] = {}  # job id -> (journal, its WAV)

    def leftover_audio(self) -> list[LeftoverAudio]:
        """Audio of dictations that were killed before it was transcribed (oldest first)."""
        try:
            in_use = {wav for _leftover, wav in self._recovering.values()}
            for stale in set(self.root.glob("Recovered dictation *.wav")) - in_use:
                stale.unlink()  # a job the app quit before; its journal is still there
            return find_leftovers(self.root)
        except OSError:
            log.exception("Could not look for dictation audio to recover in %s", self.root)
            return []

    def recover(self, leftover: LeftoverAudio) -> None:
        """Transcribe it as a file job (its text goes into the killed session's History entry);
        the journal is deleted once the job is done."""
        wav = leftover.write_wav(self.root / f"Recovered dictation {leftover.folder.name[8:23]}.wav")
        for job in self.jobs.add([wav]):
            self._recovering[job.id] = (leftover, wav)

    def discard(self, leftover: LeftoverAudio) -> None:
        leftover.discard()
        if leftover.entry_id is not None:  # a session killed before its first words: nothing left of it
            self.history.delete_if_empty(leftover.entry_id)
            self.history_changed()

    def leftover_of(self, job: object) -> LeftoverAudio | None:
        """The journal `job` transcribes (None: an ordinary file job)."""
        entry = self._recovering.get(getattr(job, "id", -1))
        return entry[0] if entry is not None else None

    def finish(self, job: object) -> None:
        """`job` ended: its WAV is deleted, and its journal once its text is in the History."""
        entry = self._recovering.pop(getattr(job, "id", -1), None)
        if entry is None:
            return
        leftover, wav = entry
        wav.unlink(missing_ok=True)
        if getattr(job, "transcript", None) is not None:
            leftover.discard()  # its text is in the History now; a failed job keeps it for later

    def save(self, leftover: LeftoverAudio, transcript: FileTranscript) -> None:
        """The recovered words go after the text the killed session had stored, in its entry
        (a journal of an older Earshot, or an entry deleted since: a new dictation entry)."""
        entry = self.history.get(leftover.entry_id) if leftover.entry_id is not None else None
        entry_id = entry.id if entry is not None else self.history.create(EntryKind.DICTATION, "")
        text = transcript.text.strip()
        if text:
            joiner = " " if entry is not None and entry.text.strip() and not entry.text[-1].isspace() else ""
            self.history.append(entry_id, joiner + text)
        for s in transcript.segments:
            if s.text.strip():
                piece = TimedText(leftover.start_s + s.start, leftover.start_s + s.end, s.text.strip())
                self.history.add_segment(entry_id, piece)
        self.history.delete_if_empty(entry_id)
        self.history_changed()

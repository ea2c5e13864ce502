"""States the user sees, as Enums."""

from __future__ import annotations

import enum


class RecordState(enum.Enum):
    """What the record bar shows: idle, waiting for the model, listening, hearing speech,
    finishing the last utterance, or an error (with its reason)."""

    IDLE = "idle"
    LOADING_MODEL = "loading model"
    LISTENING = "listening"
    HEARING_SPEECH = "hearing speech"
    FINISHING = "finishing"
    ERROR = "error"

    @property
    def is_active(self) -> bool:
        """True while a dictation session is open (the record button means Stop)."""
        return self in (RecordState.LISTENING, RecordState.HEARING_SPEECH)


class ModelState(enum.Enum):
    """The live model: not loaded (or unloaded while idle), loading, ready, or failed to load."""

    NOT_LOADED = "not loaded"
    LOADING = "loading"
    READY = "ready"
    FAILED = "failed"


class JobState(enum.Enum):
    """Where a file job is; DONE, FAILED and CANCELLED are final (`finished`)."""

    QUEUED = "queued"
    LOADING_MODEL = "loading model"
    DECODING = "reading file"
    TRANSCRIBING = "transcribing"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"

    @property
    def finished(self) -> bool:
        return self in (JobState.DONE, JobState.FAILED, JobState.CANCELLED)

"""The dictation worker's state, moved by compare-and-set from two threads.

The caller's thread stops or cancels; the worker thread loses its device or finishes. Each move
names the states it may leave, under one lock, so a cancel can never be overwritten by the
worker's FINISHED (without the lock the worker can read "not cancelled", the cancel land, and
FINISHED win).
"""

from __future__ import annotations

import enum
import threading


class WorkerState(enum.Enum):
    """Where a dictation session is: CREATED -> RUNNING -> STOPPING -> FINISHED, or CANCELLED
    from any state before FINISHED."""

    CREATED = "created"
    RUNNING = "running"
    STOPPING = "stopping"  # source closed; draining and committing what is left
    FINISHED = "finished"
    CANCELLED = "cancelled"


LIVE = (WorkerState.CREATED, WorkerState.RUNNING, WorkerState.STOPPING)
"""The states a cancel or the end of the loop may leave."""


class WorkerStateCell:
    """A `WorkerState` that changes only through `move` (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._state = WorkerState.CREATED

    @property
    def state(self) -> WorkerState:
        return self._state

    def move(self, to: WorkerState, *, leaving: tuple[WorkerState, ...]) -> bool:
        """Become `to` if the state is one of `leaving`; True if it moved."""
        with self._lock:
            if self._state not in leaving:
                return False
            self._state = to
            return True

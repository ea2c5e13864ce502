"""A dictation source whose audio reaches the crash-recovery journal within `RELAY_S` of capture.

The worker pulls from its source only between decodes, and one decode can take a second or more;
audio waiting in the capture ring meanwhile exists only in this process's memory, and a kill -9
loses it (the PortAudio callback itself never writes to disk: no I/O, no locks there). This relay
sits between the source and the worker: a thread of its own moves what the source captured, every
`RELAY_S`, into the journal (at 16 kHz; `os.write`, so the OS keeps it through a kill) and into
the ring the worker reads, at the source's rate and with the source's capture times (latency
figures stay true). It moves only what that ring has room for, so a fast replay still waits
instead of overflowing, and a stalled worker still overflows the capture ring as before.
"""

from __future__ import annotations

import logging
import threading
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from app.audio.resampler import StreamResampler
from app.audio.ring_buffer import RingBuffer
from app.dictation.timeline import RingProducer

RELAY_S = 0.05
"""Seconds between moves: at most about this much captured audio is not on disk yet."""

log = logging.getLogger(__name__)


class Journal(Protocol):
    """Takes the session's audio, 16 kHz mono float32 of shape (n,), in order (`AudioJournal`)."""

    def write(self, audio: NDArray[np.float32]) -> None: ...


class JournaledSource:
    """`inner` (a microphone or a replay) with every sample also written to `journal`."""

    def __init__(self, inner: RingProducer, journal: Journal) -> None:
        self.inner = inner
        self.journal = journal
        self.ring = RingBuffer(inner.ring.capacity, inner.ring.sample_rate)
        self._resampler = StreamResampler(inner.ring.sample_rate)
        self._read = 0  # absolute index into the inner ring
        self._thread = threading.Thread(target=self._run, name="earshot-journal", daemon=True)

    @property
    def overflows(self) -> int:
        return int(self.inner.overflows) + self.ring.overflow_blocks

    def start(self) -> None:
        self.inner.start()  # raises AudioDeviceError before the relay runs
        self._thread.start()

    def stop(self) -> None:
        """Stop the inner source; the relay moves what is left, then closes the worker's ring."""
        self.inner.stop()

    def check_alive(self) -> None:
        self.inner.check_alive()

    def _run(self) -> None:
        stopping = threading.Event()
        try:
            while not self._move():
                stopping.wait(RELAY_S)
        except Exception:  # a bug here must not leave the worker waiting for audio forever
            log.exception("the dictation journal relay stopped")
            self.inner.stop()
        finally:
            self.ring.close()

    def _move(self) -> bool:
        """Move what the inner ring holds and ours has room for; True once the source has ended
        and everything is moved."""
        source = self.inner.ring
        closed = source.closed  # read before `written`: once closed, `written` is final
        end = min(source.written, self._read + self.ring.free_space())
        if end > self._read:
            chunk = source.read(self._read, end)
            self.journal.write(self._resampler.process(chunk))
            self.ring.write(chunk, captured_at=source.capture_time(end))
            source.release(end)
            self._read = end
        done = closed and self._read == source.written
        if done:
            self.journal.write(self._resampler.flush())
        return done

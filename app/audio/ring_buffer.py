"""A preallocated single-producer / single-consumer ring of float32 mono samples.

The producer (an audio callback or a file replayer) copies blocks in with `write`; it never
allocates, logs or takes a lock. The consumer addresses samples by *absolute* index (sample 0 is
the first sample ever written) so it can peek at any span it has not yet released, and frees space
with `release` only once that audio is safe (transcribed and committed, or copied elsewhere).

Thread safety relies on the GIL making single int/float stores atomic and on the ordering
"copy data, then publish the new write index": the consumer never sees an index before its data.
When a block does not fit, the producer drops the *new* block and counts it as an overflow, so
unreleased audio is never overwritten under the consumer's feet.
"""

from __future__ import annotations

import time

import numpy as np
from numpy.typing import NDArray


class RingOverrunError(Exception):
    """Raised when the consumer asks for samples that are no longer (or not yet) in the ring."""


class RingBuffer:
    """Fixed-capacity ring of float32 samples addressed by absolute sample index.

    Args:
        capacity: number of samples the ring holds (for example 10 s x 48 kHz = 480_000).
        sample_rate: samples per second of the stored audio, used for `capture_time`.
    """

    def __init__(self, capacity: int, sample_rate: int) -> None:
        if capacity <= 0:
            raise ValueError("capacity must be positive")
        self.capacity = int(capacity)
        self.sample_rate = int(sample_rate)
        # np.full writes every page now: np.zeros would map them lazily, and the first pass over the
        # ring would page-fault inside the audio callback
        self._data = np.full(self.capacity, 0.0, dtype=np.float32)
        self._written = 0  # absolute index one past the last published sample
        self._released = 0  # absolute index of the oldest sample still kept
        self._overflow_blocks = 0
        self._overflow_samples = 0
        # [absolute index after the last write, time.monotonic() of that write]
        self._clock = np.zeros(2, dtype=np.float64)
        self._closed = False

    # ----------------------------------------------------------------- producer side
    def write(self, block: NDArray[np.float32], captured_at: float | None = None) -> bool:
        """Copy a 1-D float32 block in; return False (and count an overflow) if it does not fit.
        `captured_at`: `time.monotonic()` when the block's last sample was captured (default: now;
        a relay copying from another ring passes that ring's time).

        Called from the audio callback: no allocation beyond NumPy's view objects, no lock.
        """
        n = block.shape[0]
        start = self._written
        if start + n - self._released > self.capacity:
            self._overflow_blocks += 1
            self._overflow_samples += n
            return False
        pos = start % self.capacity
        first = min(n, self.capacity - pos)
        self._data[pos : pos + first] = block[:first]
        if first < n:
            self._data[: n - first] = block[first:]
        self._written = start + n  # publish after the copy
        self._clock[1] = time.monotonic() if captured_at is None else captured_at
        self._clock[0] = self._written
        return True

    def free_space(self) -> int:
        """Samples the producer can write now without an overflow."""
        return self.capacity - (self._written - self._released)

    def close(self) -> None:
        """Mark the end of the stream (file replay finished, microphone stopped)."""
        self._closed = True

    # ----------------------------------------------------------------- consumer side
    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def written(self) -> int:
        """Absolute index one past the newest sample (monotonic, never decreases)."""
        return self._written

    @property
    def released(self) -> int:
        """Absolute index of the oldest sample still readable."""
        return self._released

    @property
    def overflow_blocks(self) -> int:
        return self._overflow_blocks

    @property
    def overflow_samples(self) -> int:
        return self._overflow_samples

    def read(self, start: int, stop: int) -> NDArray[np.float32]:
        """Copy samples [start, stop) (absolute indices) into a new float32 array of shape (n,)."""
        if start < self._released or stop > self._written or stop < start:
            raise RingOverrunError(f"span [{start}, {stop}) outside kept audio [{self._released}, {self._written})")
        out = np.empty(stop - start, dtype=np.float32)
        pos = start % self.capacity
        first = min(stop - start, self.capacity - pos)
        out[:first] = self._data[pos : pos + first]
        if first < out.shape[0]:
            out[first:] = self._data[: out.shape[0] - first]
        return out

    def release(self, upto: int) -> None:
        """Free every sample before absolute index `upto` (clipped to what was written)."""
        upto = min(int(upto), self._written)
        if upto > self._released:
            self._released = upto

    @property
    def last_write_time(self) -> float:
        """`time.monotonic()` of the last successful write (0.0 before the first)."""
        return float(self._clock[1])

    def capture_time(self, index: float) -> float:
        """Estimated `time.monotonic()` at which absolute sample `index` was captured.

        Assumes the producer runs in real time (true for a microphone and a real-time replay).
        """
        last_index, last_time = float(self._clock[0]), float(self._clock[1])
        return last_time - (last_index - index) / self.sample_rate

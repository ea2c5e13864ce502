"""Replay an in-memory recording into a `RingBuffer`, in real time or as fast as allowed.

This is the file (and test) twin of `MicrophoneCapture`: the same ring, the same consumer.
Real-time mode paces blocks on the monotonic clock like a sound card would; fast mode writes as
soon as the ring has room (back-pressure instead of overflow), so nothing is ever dropped.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from app.audio.ring_buffer import RingBuffer


@dataclass(frozen=True)
class ReplayOptions:
    """`realtime` paces the audio at 1x; `block_s` is the write block length in seconds;
    `ring_s` the ring capacity in seconds; `lead_silence_s` silence written before the audio."""

    realtime: bool = False
    block_s: float = 0.02
    ring_s: float = 20.0
    lead_silence_s: float = 0.0


class ReplaySource:
    """Feeds `audio` (float32, shape (n,), `sample_rate` Hz) into `self.ring` from a thread.

    The recording is not copied (a 30 minute replay is 115 MB at 16 kHz); the lead silence is
    written from one preallocated block of zeros."""

    def __init__(self, audio: NDArray[np.float32], sample_rate: int, options: ReplayOptions = ReplayOptions()) -> None:
        self.audio = np.asarray(audio, dtype=np.float32).reshape(-1)
        self.sample_rate = int(sample_rate)
        self.options = options
        self._lead = int(options.lead_silence_s * sample_rate)
        self._block = max(1, int(options.block_s * sample_rate))
        self._zeros = np.zeros(self._block, dtype=np.float32)
        capacity = max(int(options.ring_s * sample_rate), self._block * 4)
        self.ring = RingBuffer(capacity, self.sample_rate)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="earshot-replay", daemon=True)
        self.error: str | None = None

    @property
    def overflows(self) -> int:
        return self.ring.overflow_blocks

    @property
    def duration_s(self) -> float:
        return float(self._lead + self.audio.shape[0]) / self.sample_rate

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Stop feeding (what was written stays in the ring) and close the ring."""
        self._stop.set()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join()
        self.ring.close()

    def check_alive(self) -> None:
        """A replay cannot be unplugged; present for parity with `MicrophoneCapture`."""

    def _run(self) -> None:
        t0 = time.monotonic()
        pos = 0
        n = self._lead + self.audio.shape[0]
        while pos < n and not self._stop.is_set():
            chunk = self._chunk(pos)
            if self.options.realtime:
                due = t0 + (pos + chunk.shape[0]) / self.sample_rate
                delay = due - time.monotonic()
                if delay > 0:
                    self._stop.wait(delay)
                self.ring.write(chunk)  # like a sound card: overflow if the consumer stalls
            else:
                while self.ring.free_space() < chunk.shape[0] and not self._stop.is_set():
                    self._stop.wait(0.002)
                if self._stop.is_set():
                    break
                self.ring.write(chunk)
            pos += chunk.shape[0]
        self.ring.close()

    def _chunk(self, pos: int) -> NDArray[np.float32]:
        """The block starting at `pos` of lead silence + audio (a view, except across the seam)."""
        lead, block = self._lead, self._block
        if pos + block <= lead:
            return self._zeros
        if pos >= lead:
            return self.audio[pos - lead : pos - lead + block]
        return np.concatenate([self._zeros[: lead - pos], self.audio[: pos + block - lead]])

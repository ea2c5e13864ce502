"""Session audio at 16 kHz: source ring -> resampler -> timeline ring (+ VAD marks, recording).

The timeline keeps every sample the policy may still need (from its current window start on) and
maps a 16 kHz sample index to the wall-clock time it was captured, for latency figures.
"""

from __future__ import annotations

import time
import wave
from pathlib import Path
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from app.audio.resampler import TARGET_RATE, StreamResampler
from app.audio.ring_buffer import RingBuffer
from app.private_files import private_file


class RingProducer(Protocol):
    """A producer filling `ring` (mono float32 at `ring.sample_rate`): microphone or replay."""

    ring: RingBuffer

    @property
    def overflows(self) -> int: ...

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def check_alive(self) -> None: ...


class SessionRecorder:
    """Appends session audio (16 kHz mono, 16-bit PCM) to a WAV file as it arrives."""

    def __init__(self, path: Path) -> None:
        self.path = private_file(path)  # 0600 in a 0700 folder: the user's voice
        self._wav = wave.open(str(path), "wb")  # noqa: SIM115 - open for the whole session
        self._wav.setnchannels(1)
        self._wav.setsampwidth(2)
        self._wav.setframerate(TARGET_RATE)

    def write(self, audio: NDArray[np.float32]) -> None:
        pcm = np.clip(audio * 32767.0, -32768, 32767).astype("<i2")
        self._wav.writeframes(pcm.tobytes())

    def close(self) -> None:
        self._wav.close()


class Timeline:
    """Pulls from a `RingProducer` ring, resamples to 16 kHz and stores the result.

    `pull(max_samples)` moves all available source samples (None), or exactly `max_samples` once
    that many are there (fewer only at the end), and returns the new 16 kHz audio, float32 (n,).
    `realtime` says whether source sample times are wall-clock capture times (microphone,
    real-time replay) or not (fast replay).
    """

    def __init__(
        self,
        source: RingProducer,
        realtime: bool,
        capacity_s: float = 90.0,
        recorder: SessionRecorder | None = None,
    ) -> None:
        self.source = source
        self.realtime = realtime
        self.recorder = recorder
        self.ring = RingBuffer(int(capacity_s * TARGET_RATE), TARGET_RATE)
        self._resampler = StreamResampler(source.ring.sample_rate)
        self._read = 0  # absolute index into the source ring
        self._snap = (0, time.monotonic())  # (16 kHz index, capture time of it)
        self.finished = False

    @property
    def written(self) -> int:
        return self.ring.written

    @property
    def overflows(self) -> int:
        return int(self.source.overflows) + self.ring.overflow_blocks

    def pull(self, max_samples: int | None = None) -> NDArray[np.float32]:
        src = self.source.ring
        closed = src.closed  # read before `written`: once closed, `written` is final
        end = src.written
        if max_samples is not None:
            if end - self._read < max_samples and not closed:
                # fast replay: wait for a whole step, so results do not depend on thread timing
                return np.zeros(0, dtype=np.float32)
            end = min(end, self._read + max_samples)
        chunk = src.read(self._read, end)
        src.release(end)
        self._read = end
        out = self._resampler.process(chunk)
        if closed and end == src.written and not self.finished:
            out = np.concatenate([out, self._resampler.flush()])
            self.finished = True
        self._store(out, src.capture_time(end) if self.realtime else time.monotonic())
        return out

    def _store(self, audio: NDArray[np.float32], captured_at: float) -> None:
        if audio.size:
            self.ring.write(audio)
            if self.recorder is not None:
                self.recorder.write(audio)
        self._snap = (self.ring.written, captured_at)

    def capture_time(self, index: float) -> float:
        """Wall-clock (`time.monotonic()`) capture time of 16 kHz sample `index`."""
        snap_index, snap_time = self._snap
        return snap_time - (snap_index - index) / TARGET_RATE

    def get(self, start: int, stop: int) -> NDArray[np.float32]:
        """Samples [start, stop) at 16 kHz, float32 shape (stop - start,)."""
        return self.ring.read(start, stop)

    def release(self, upto: int) -> None:
        self.ring.release(upto)

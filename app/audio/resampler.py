"""Streaming resampler to 16 kHz (soxr), used off the audio callback by the consumer."""

from __future__ import annotations

import numpy as np
import soxr
from numpy.typing import NDArray

TARGET_RATE = 16_000


class StreamResampler:
    """Converts successive mono float32 chunks at `in_rate` Hz to 16 kHz without seams.

    A pass-through when `in_rate` is already 16 kHz. Call `flush()` once at the end to get the
    samples soxr holds back for its filter.
    """

    def __init__(self, in_rate: int, out_rate: int = TARGET_RATE) -> None:
        self.in_rate = int(in_rate)
        self.out_rate = int(out_rate)
        self._stream = (
            None
            if self.in_rate == self.out_rate
            else soxr.ResampleStream(self.in_rate, self.out_rate, 1, dtype="float32", quality="HQ")
        )

    def process(self, chunk: NDArray[np.float32]) -> NDArray[np.float32]:
        """Resample one chunk, shape (n,) float32 -> shape (m,) float32 at `out_rate`."""
        if self._stream is None:
            return np.asarray(chunk, dtype=np.float32)
        out = self._stream.resample_chunk(np.ascontiguousarray(chunk, dtype=np.float32))
        return np.asarray(out, dtype=np.float32).reshape(-1)

    def flush(self) -> NDArray[np.float32]:
        """The remaining output at end of stream, shape (m,) float32."""
        if self._stream is None:
            return np.zeros(0, dtype=np.float32)
        out = self._stream.resample_chunk(np.zeros(0, dtype=np.float32), last=True)
        return np.asarray(out, dtype=np.float32).reshape(-1)

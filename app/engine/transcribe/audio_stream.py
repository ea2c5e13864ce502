"""A file's audio as a stream of chunks, featurised 30 s block by block as windows need it.

Memory stays bounded whatever the file's length: audio is kept only from the first block not yet
featurised, log-mel only for the blocks the current windows use (plus one ahead), and the
speech map (one byte per 32 ms) for the whole file.

Log-mel equals `features.log_mel` of the whole file bit for bit when the file is at most one
block (30 s) long. Longer files differ in two ways, both without effect on the test clips' text
(tests/engine/test_streamed_features.py bounds the log-mel difference): the mel product of a block
is computed over that block's 3000 columns, and BLAS sums them in another order than over a whole
file (differences at the level of float32 rounding); and the dynamic-range floor (loudest - 8)
uses the loudest frame of the blocks featurised so far (up to one block beyond the window)
instead of the whole file's.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

import numpy as np
from numpy.typing import NDArray

from app.engine.runtime.features import HOP_LENGTH, N_FFT, N_FRAMES_WINDOW, hann_window, mel_filters, pad_or_trim
from app.engine.transcribe.speech_map import SpeechMap

BLOCK = N_FRAMES_WINDOW
"""Mel frames per featurised block (30 s)."""
_HALF = N_FFT // 2  # STFT centre padding, samples


class StreamedFeatures:
    """Pulls audio chunks ([n] float32 16 kHz, any length) lazily and serves log-mel windows."""

    def __init__(self, chunks: Iterable[NDArray[np.float32]], n_mels: int, speech: SpeechMap) -> None:
        self._chunks = iter(chunks)
        self.n_mels, self.speech = n_mels, speech
        self._audio = np.zeros(0, dtype=np.float32)
        self._base = 0  # absolute sample index of self._audio[0]
        self.n_samples = 0  # samples received so far
        self.ended = False
        self._blocks: dict[int, NDArray[np.float32]] = {}  # block -> unclamped log10 mel
        self._next_block = 0  # blocks below this are featurised or skipped
        self._loudest: np.float32 | None = None
        self.features_s = 0.0  # seconds spent computing log-mel

    @property
    def n_frames(self) -> int | None:
        """Mel frames of the whole file (n_samples // 160), once the stream has ended."""
        return self.n_samples // HOP_LENGTH if self.ended else None

    def frames_at(self, start: int, lookahead: int = BLOCK) -> int:
        """Frames of a window starting at frame `start` (<= 3000; 0 at the end), having read
        enough audio to classify it and to featurise `lookahead` frames beyond it."""
        self._pull_to((start + BLOCK + lookahead) * HOP_LENGTH + N_FFT)
        if self.n_frames is not None:
            return max(0, min(BLOCK, self.n_frames - start))
        return BLOCK

    def window(self, start: int, n_frames: int) -> NDArray[np.float32]:
        """Log-mel [n_mels, 3000] float32 of frames [start, start + n_frames), zero-padded."""
        last = (start + n_frames - 1) // BLOCK
        for k in range(self._next_block, last + 2):  # one block ahead for the floor
            self._featurise(k)
        pieces = [
            self._blocks[k][:, max(0, start - k * BLOCK) : start + n_frames - k * BLOCK]
            for k in range(start // BLOCK, last + 1)
        ]
        assert self._loudest is not None
        log_spec = np.maximum(np.concatenate(pieces, axis=1), self._loudest - 8.0)
        return pad_or_trim(((log_spec + 4.0) / 4.0).astype(np.float32))

    def release_before(self, frame: int) -> None:
        """Windows will not start before `frame` again: free the blocks wholly before it."""
        for k in [k for k in self._blocks if (k + 1) * BLOCK <= frame]:
            del self._blocks[k]

    def next_speech_frame(self, frame: int) -> int | None:
        """First frame >= `frame` the speech map calls speech, reading on as far as needed
        (silent audio is dropped on the way, never featurised); None if none to the end."""
        while True:
            hit = self.speech.next_speech(frame * HOP_LENGTH)
            if hit is not None:
                return hit // HOP_LENGTH
            if self.ended:
                return None
            # [frame, classified) has none, so the next window starts after classified - BLOCK
            # (callers start at most BLOCK frames before the speech found).
            self._skip_to(self.speech.classified // HOP_LENGTH - BLOCK)
            self._pull()

    def _skip_to(self, frame: int) -> None:
        """No window will need frames before `frame`: their blocks are never featurised."""
        self._next_block = max(self._next_block, frame // BLOCK)
        self.release_before(frame)
        self._drop_audio_before(self._next_block * BLOCK * HOP_LENGTH - _HALF)

    def _pull_to(self, sample: int) -> None:
        while not self.ended and self.n_samples < sample:
            self._pull()

    def _pull(self) -> None:
        chunk = next(self._chunks, None)
        if chunk is None:
            self.ended = True
            self.speech.finish()
            return
        chunk = np.asarray(chunk, dtype=np.float32).reshape(-1)
        self._audio = np.concatenate([self._audio, chunk])
        self.n_samples += len(chunk)
        self.speech.feed(chunk)

    def _drop_audio_before(self, sample: int) -> None:
        cut = min(max(0, sample - self._base), len(self._audio))
        if cut:
            self._audio, self._base = self._audio[cut:].copy(), self._base + cut

    def _featurise(self, k: int) -> None:
        """Compute block k's unclamped log10 mel [n_mels, <= 3000] (nothing past the end)."""
        if k in self._blocks or k < self._next_block:
            return
        first = k * BLOCK
        self._pull_to((first + BLOCK) * HOP_LENGTH + _HALF)
        ext = max(self.n_samples + HOP_LENGTH, N_FFT) if self.ended else None  # log_mel's padded length
        end = first + BLOCK if ext is None else min(first + BLOCK, ext // HOP_LENGTH)
        if end <= first:
            self._next_block = k + 1
            return
        t0 = time.perf_counter()
        span = self._padded(first * HOP_LENGTH, (end - 1) * HOP_LENGTH + N_FFT, ext)
        frames = np.lib.stride_tricks.as_strided(
            span, (end - first, N_FFT), (span.strides[0] * HOP_LENGTH, span.strides[0])
        )
        spectrum = np.fft.rfft(frames * hann_window(), axis=-1).astype(np.complex64)
        power = (np.abs(spectrum) ** 2).T.astype(np.float32)
        block: NDArray[np.float32] = np.log10(np.maximum(mel_filters(self.n_mels) @ power, 1e-10))
        self._blocks[k] = block
        loudest = block.max()
        self._loudest = loudest if self._loudest is None else max(self._loudest, loudest)
        self._next_block = k + 1
        self._drop_audio_before(self._next_block * BLOCK * HOP_LENGTH - _HALF)
        self.features_s += time.perf_counter() - t0

    def _padded(self, i0: int, i1: int, ext: int | None) -> NDArray[np.float32]:
        """Samples [i0, i1) of what `log_mel` pads the whole file to: a hop of zeros at the end
        (`ext` samples in all, once known), then `_HALF` samples reflected at each side."""
        j = np.arange(i0, i1) - _HALF
        j = np.abs(j)
        if ext is not None:
            j = np.where(j >= ext, 2 * (ext - 1) - j, j)
        inside = j < self.n_samples
        values = np.zeros(len(j), dtype=np.float32)
        values[inside] = self._audio[j[inside] - self._base]
        return values

"""Where a file has speech: an energy gate for digital silence, then an optional speech detector.

The engine never imports `app.audio`; the caller hands in any `SpeechDetector` (the app and the
CLI pass the Silero VAD of `app.audio.vad`). The map holds one byte per 32 ms frame (3 hours:
330 kB), so it can cover a whole file.

The thresholds come from the shared speech and robustness recordings (bench/long_files.py
measures them): whispered speech (`en_mfa_whisper_mfa`) peaks at a low speech probability and
has very quiet frames, while noise and music reach anything from low to near-certain speech.
So the detector alone only tells "certainly no speech" (no frame >= `LOW_PROB`) from "maybe";
a window with little evidence is then kept only if Whisper's own no-speech probability is low.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

SPEECH_FRAME = 512
"""Samples per classified frame (32 ms at 16 kHz), Silero's frame."""
SILENCE_RMS = 1e-4
"""-80 dBFS: quieter frames are digital silence or dither, never speech (the quietest whispers stay above)."""
LOW_PROB = 0.1
"""A window with no frame at or above this has no speech and is not decoded."""
SURE_PROB = 0.5
SURE_FRAMES = 8
"""Fewer than this many frames (0.26 s) at >= `SURE_PROB`: weak evidence (noise, whispers)."""
WEAK_NO_SPEECH = 0.3
"""Weak-evidence windows are dropped above this no-speech probability (whispers: 0.06-0.09,
noise and generated music: 0.40-0.92)."""
STRONG_NO_SPEECH = 0.4
"""Other windows are dropped above this no-speech probability with an avg log-prob below -1
(Whisper's own rule uses 0.6; music read as "Thank you." at 0.47, -1.65)."""

RESET_AFTER_FRAMES = 16
"""After this many frames (0.5 s) of digital silence a fresh detector also scores what follows,
and each frame gets the higher of its two probabilities. A loud sentence's state leaves the
detector deaf to a whispered one after it (far lower than alone); a fresh state can be deaf too
(a whisper that the state after speech hears), as the live segmenter also finds."""

SPEECH_PAD_FRAMES = 100
"""After a stretch without speech, the next window starts 1 s (mel frames) before the speech."""

_SCALE = 255
_DETECT_BLOCK = 4096
"""Frames (131 s) per batched detector call: bounds the copy of the frames it is handed."""


class SpeechDetector(Protocol):
    """Speech probability of consecutive 512-sample frames of one stream (16 kHz float32)."""

    def __call__(self, frame: NDArray[np.float32]) -> float:
        """`frame` [512] float32 -> probability 0..1 that it holds speech."""
        ...


@runtime_checkable
class ForkableSpeechDetector(SpeechDetector, Protocol):
    """A detector that makes a twin with a fresh state (Silero's VAD)."""

    def fork(self) -> SpeechDetector:
        """A second detector of the same kind that has heard nothing yet."""
        ...


@runtime_checkable
class BatchSpeechDetector(SpeechDetector, Protocol):
    """A detector that also scores many consecutive frames in one call (Silero's VAD does: its
    convolutions run on all of them at once, only its LSTM cell steps frame by frame)."""

    def probabilities(self, frames: NDArray[np.float32]) -> NDArray[np.float32]:
        """`frames` [n, 512] float32 -> probabilities [n] float32, the same as calling the
        detector on each frame in order (and leaving it in the same state)."""
        ...


class SpeechMap:
    """Per-frame speech probabilities of a stream fed in order with `feed`.

    Without a detector every frame above the energy gate counts as speech (probability 1), so
    only digital silence is skipped and decoding is otherwise unchanged.
    """

    def __init__(self, detector: SpeechDetector | None = None) -> None:
        self.detector = detector
        self._probs = bytearray()  # prob * 255 per frame
        self._carry = np.zeros(0, dtype=np.float32)
        self._gated_run = 0  # digital-silence frames at the end of what was fed so far
        self._fresh: SpeechDetector | None = None  # the twin forked after the last pause

    @property
    def classified(self) -> int:
        """Samples classified so far (a multiple of `SPEECH_FRAME`)."""
        return len(self._probs) * SPEECH_FRAME

    def feed(self, audio: NDArray[np.float32]) -> None:
        """Classify `audio` [n] float32 16 kHz, contiguous with earlier calls."""
        buf = np.concatenate([self._carry, audio]) if self._carry.size else audio
        n = len(buf) // SPEECH_FRAME
        frames = buf[: n * SPEECH_FRAME].reshape(n, SPEECH_FRAME)
        loud = np.sqrt(np.mean(np.square(frames, dtype=np.float64), axis=1)) >= SILENCE_RMS
        probs = loud.astype(np.float64)
        if self.detector is not None:  # the detector runs only where the gate lets sound through
            for after_pause, part in self._takes(loud):
                _detect(self.detector, frames, part, probs)
                if after_pause and isinstance(self.detector, ForkableSpeechDetector):
                    self._fresh = self.detector.fork()
                if self._fresh is not None:
                    fresh = np.zeros_like(probs)
                    _detect(self._fresh, frames, part, fresh)
                    probs[part] = np.maximum(probs[part], fresh[part])
        self._probs += np.round(np.clip(probs, 0.0, 1.0) * _SCALE).astype(np.uint8).tobytes()
        self._carry = np.array(buf[n * SPEECH_FRAME :], dtype=np.float32)

    def _takes(self, loud: NDArray[np.bool_]) -> list[tuple[bool, NDArray[np.intp]]]:
        """The frames of `loud` [n] bool to score, as indices split where at least
        `RESET_AFTER_FRAMES` of digital silence come before them (also across calls), each with
        whether it starts after such a pause."""
        called = np.flatnonzero(loud)
        # gated frames before each called frame, since the previous called one or the carried run
        before = np.diff(np.concatenate([[-1 - self._gated_run], called])) - 1
        self._gated_run = len(loud) - 1 - int(called[-1]) if called.size else self._gated_run + len(loud)
        if not isinstance(self.detector, ForkableSpeechDetector):
            return [(False, called)]
        cuts = np.flatnonzero(before >= RESET_AFTER_FRAMES).tolist()
        bounds = [0, *cuts, len(called)]
        return [(a in cuts, called[a:b]) for a, b in pairwise(bounds) if b > a]

    def finish(self) -> None:
        """End of stream: the last partial frame is classified, zero-padded."""
        if self._carry.size:
            self.feed(np.zeros(SPEECH_FRAME - self._carry.size, dtype=np.float32))

    def _span(self, start: int, stop: int) -> NDArray[np.uint8]:
        """Frames overlapping samples [start, stop)."""
        first, last = max(0, start // SPEECH_FRAME), -(-stop // SPEECH_FRAME)
        return np.frombuffer(self._probs, dtype=np.uint8)[first:last]

    def has_speech(self, start: int, stop: int) -> bool:
        """Any frame in samples [start, stop) at or above `LOW_PROB`."""
        return bool((self._span(start, stop) >= LOW_PROB * _SCALE).any())

    def next_speech(self, start: int) -> int | None:
        """First classified sample >= `start` whose frame is at or above `LOW_PROB`, else None."""
        hits = np.flatnonzero(self._span(start, self.classified) >= LOW_PROB * _SCALE)
        return None if not hits.size else max(start, (start // SPEECH_FRAME + int(hits[0])) * SPEECH_FRAME)

    def is_weak(self, start: int, stop: int) -> bool:
        """Fewer than `SURE_FRAMES` frames in [start, stop) at or above `SURE_PROB`."""
        return int((self._span(start, stop) >= SURE_PROB * _SCALE).sum()) < SURE_FRAMES

    def rejects(self, start: int, stop: int, no_speech_prob: float, avg_logprob: float) -> bool:
        """After decoding samples [start, stop): True when the text is to be dropped as non-speech.
        Only with a detector: without one, Whisper's own rule alone decides."""
        if self.detector is None:
            return False
        if self.is_weak(start, stop):
            return no_speech_prob > WEAK_NO_SPEECH
        return no_speech_prob > STRONG_NO_SPEECH and avg_logprob < -1.0

    def probabilities(self, start: int, stop: int) -> NDArray[np.float32]:
        """Speech probability [n_frames] float32 of the frames overlapping samples [start, stop)."""
        probs: NDArray[np.float32] = self._span(start, stop).astype(np.float32) / np.float32(_SCALE)
        return probs


def _detect(
    detector: SpeechDetector, frames: NDArray[np.float32], called: NDArray[np.intp], probs: NDArray[np.float64]
) -> None:
    """Score `frames[called]` ([n, 512] float32, in order) into `probs` [n_frames] float64. The
    detector sees only the called frames, so each one's context is the previous called frame,
    whichever path scores it."""
    if isinstance(detector, BatchSpeechDetector):
        for start in range(0, len(called), _DETECT_BLOCK):
            part = called[start : start + _DETECT_BLOCK]
            probs[part] = detector.probabilities(frames[part])
    else:
        for i in called:
            probs[i] = detector(frames[i])

"""Where the windows of a batched transcription start and end, planned ahead on the stream.

Each window is at most 30 s and ends in the longest pause of its last `SEARCH_FRAMES`: the
longest run of speech-map frames below `PAUSE_PROB` (with the Silero VAD: non-speech; without a
detector: digital silence), so no utterance straddles a cut. Where the last 10 s hold no pause
at all, the cut falls in the quietest 0.5 s (mean log-mel energy). Stretches of 30 s
without speech are skipped: the next window starts 1 s before the next speech.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numpy.typing import NDArray

from app.engine.runtime.features import HOP_LENGTH
from app.engine.transcribe.audio_stream import BLOCK, StreamedFeatures
from app.engine.transcribe.speech_map import SPEECH_FRAME, SPEECH_PAD_FRAMES, SpeechDetector, SpeechMap

SEARCH_FRAMES = 1000
"""A window's cut is looked for in its last 10 s (mel frames)."""
PAUSE_PROB = 0.35
"""Speech-map frames below this are a pause (the live VAD's speech threshold)."""
MIN_PAUSE = 3
"""Speech-map frames (96 ms): a shorter run of quiet frames is not a pause."""
QUIET_FRAMES = 50
"""The energy fallback's span: the quietest 0.5 s."""

Window = tuple[int, int]
"""(start frame, n frames)."""


class WindowPlanner:
    """Plans windows in order; `next_group` returns up to `batch` of them with their log-mel."""

    def __init__(self, feats: StreamedFeatures, batch: int) -> None:
        self.feats, self.batch = feats, batch
        self.start = 0  # frame where the next window starts
        self.mels: dict[Window, NDArray[np.float32]] = {}

    @property
    def end(self) -> int:
        """Frames in the file (once the last group has been planned)."""
        return self.feats.n_frames if self.feats.n_frames is not None else self.start

    def next_group(self) -> list[Window]:
        """Up to `batch` windows; each one's log-mel [n_mels, 3000] is in `mels` (featurised now,
        while its audio is still held). [] at the end of the file."""
        self.mels.clear()
        group: list[Window] = []
        while len(group) < self.batch and (window := self._next_window()) is not None:
            group.append(window)
            self.mels[window] = self.feats.window(*window)
            self.feats.release_before(window[0] + window[1])
        return group

    def _next_window(self) -> Window | None:
        while size := self.feats.frames_at(self.start):
            start = self.start
            if not self.feats.speech.has_speech(start * HOP_LENGTH, (start + size) * HOP_LENGTH):
                speech = self.feats.next_speech_frame(start + size)
                if speech is None:
                    return None
                self.start = max(start + 1, speech - SPEECH_PAD_FRAMES)
                continue
            if size == BLOCK and self.feats.n_frames != start + size:
                size = self._cut(start) - start
            self.start = start + size
            return start, size
        return None

    def _cut(self, start: int) -> int:
        """The frame where the window starting at `start` ends (in (start, start + 3000])."""
        lo, hi = start + BLOCK - SEARCH_FRAMES, start + BLOCK
        pause = longest_pause(self.feats.speech.probabilities(lo * HOP_LENGTH, hi * HOP_LENGTH))
        if pause is not None:
            first = lo * HOP_LENGTH // SPEECH_FRAME  # speech-map frame of `lo`
            return min(hi, max(lo, round((first + pause) * SPEECH_FRAME / HOP_LENGTH)))
        mel = self.feats.window(start, BLOCK)
        energy = mel.mean(axis=0)[BLOCK - SEARCH_FRAMES - QUIET_FRAMES :]
        smooth = np.convolve(energy, np.ones(QUIET_FRAMES) / QUIET_FRAMES, mode="same")[QUIET_FRAMES:]
        return lo + int(np.argmin(smooth))


def longest_pause(probs: NDArray[np.float32]) -> float | None:
    """Index (fractional: the middle) of the longest run of frames below `PAUSE_PROB`, or None
    when no run is `MIN_PAUSE` frames long."""
    quiet = np.concatenate([[False], probs < PAUSE_PROB, [False]])
    edges = np.flatnonzero(np.diff(quiet.astype(np.int8)))
    starts, stops = edges[::2], edges[1::2]
    if not starts.size:
        return None
    best = int(np.argmax(stops - starts))
    if stops[best] - starts[best] < MIN_PAUSE:
        return None
    return float(starts[best] + stops[best]) / 2


def plan_windows(
    chunks: Iterable[NDArray[np.float32]], n_mels: int = 80, detector: SpeechDetector | None = None
) -> list[Window]:
    """All the windows a batched transcription of `chunks` decodes (for tests and benchmarks)."""
    planner = WindowPlanner(StreamedFeatures(chunks, n_mels, SpeechMap(detector)), 1)
    windows: list[Window] = []
    while group := planner.next_group():
        windows += group
    return windows

"""Two corrections Earshot makes to the cross-attention word times (beyond openai/whisper's rules).

- Lag: the alignment path enters a token's row about `ATTENTION_LAG_S` after the word's onset
  (the heads attend to acoustic evidence of a word while its token is predicted, not to its
  first frame). The lag is taken from the committed espeak clip whose word edges are known
  exactly (tests/data/espeak_words.json, tiny.en int8), never from the benchmark's forced
  alignments, which stay an independent check.
- Pauses: DTW gives every frame to some token, so a pause is split between the words around it
  (the word after a pause typically starts in the silence, up to a second early). Word edges
  that lie in a run of at least `MIN_PAUSE_S` of quiet frames are moved to where the speech
  starts or ends; quiet is judged per window from the log-mel energy.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from app.engine.types import Word

ATTENTION_LAG_S = 0.1
MIN_PAUSE_S = 0.1
MEL_FRAMES_PER_SECOND = 100
QUIET_FRACTION = 0.3
"""A frame is quiet below floor + this fraction of the window's (floor .. loud) energy range."""
SMOOTH_FRAMES = 5
"""Energy is averaged over 50 ms, and loud runs shorter than that (clicks, breath noise) are quiet."""


def speech_mask(mel: NDArray[np.float32]) -> NDArray[np.bool_]:
    """mel [n_mels, n_frames] Whisper log-mel (10 ms frames) -> [n_frames] True where loud.

    Energy is the mean over the mel bins, averaged over 50 ms; floor and loud are its 5th and
    95th percentiles in the window, so the test adapts to the recording's noise floor and level.
    Loud runs shorter than 50 ms count as quiet."""
    n = mel.shape[-1]
    if n < SMOOTH_FRAMES:
        return np.ones(n, dtype=bool)
    kernel = np.ones(SMOOTH_FRAMES, dtype=np.float32)
    energy = np.convolve(mel.mean(axis=0), kernel / SMOOTH_FRAMES, mode="same")
    floor, loud = np.percentile(energy, [5, 95])
    if loud - floor < 0.1:  # no contrast: all speech or all silence, nothing to learn
        return np.ones(n, dtype=bool)
    mask = energy > floor + QUIET_FRACTION * (loud - floor)
    long_run_starts = np.convolve(mask.astype(np.float32), kernel, mode="valid") >= SMOOTH_FRAMES - 0.5
    covered: NDArray[np.bool_] = np.convolve(long_run_starts.astype(np.float32), kernel, mode="full")[:n] > 0.5
    return covered


def shift_for_lag(times: NDArray[np.float64]) -> NDArray[np.float64]:
    """Token start times (s, window-relative) moved earlier by the attention lag, never below 0."""
    shifted: NDArray[np.float64] = np.maximum(0.0, times - ATTENTION_LAG_S)
    return shifted


def trim_to_speech(words: list[Word], loud: NDArray[np.bool_]) -> None:
    """Move each word's start past, and its end before, quiet runs of >= MIN_PAUSE_S at its edges
    (times window-relative, seconds; `loud` from `speech_mask`). Words with no loud frame stay."""
    min_run = round(MIN_PAUSE_S * MEL_FRAMES_PER_SECOND)
    n = loud.shape[0]
    for w in words:
        first, last = _frame(w.start, n), _frame(w.end, n)
        inside = np.flatnonzero(loud[first:last])
        if inside.size == 0:
            continue
        if inside[0] >= min_run:
            w.start = (first + int(inside[0])) / MEL_FRAMES_PER_SECOND
        if (last - first) - 1 - inside[-1] >= min_run:
            w.end = (first + int(inside[-1]) + 1) / MEL_FRAMES_PER_SECOND


def _frame(seconds: float, n_frames: int) -> int:
    return int(min(max(round(seconds * MEL_FRAMES_PER_SECOND), 0), n_frames))

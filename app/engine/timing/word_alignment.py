"""Token times from cross-attention: the matrix arithmetic of openai/whisper's timing.py in numpy.

Each decoder position's attention over the 1500 encoder frames (20 ms each) of its window says
where in the audio the model looks while it writes the next token. The alignment heads' weights
are normalised (z-score over the tokens, per head and frame), smoothed along time (median of 7
frames), averaged over heads, and dynamic time warping finds the monotonic path of highest
attention; a token starts where the path first reaches its row.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

SECONDS_PER_FRAME = 0.02
"""One encoder output position: 30 s / 1500."""
MEDIAN_WIDTH = 7


def attention_matrix(weights: NDArray[np.float32], n_mel_frames: int) -> NDArray[np.float32]:
    """weights [heads, n_positions, 1500] (softmax over all 1500 frames) -> [n_positions, n_frames]
    with n_frames = n_mel_frames // 2, the frames of real audio in the window.

    Re-normalising the cropped weights equals a softmax over the cropped scores (openai crops the
    scores before its softmax); then z-score over positions, median filter, mean over heads."""
    n_frames = max(1, min(weights.shape[-1], n_mel_frames // 2))
    total = np.zeros((weights.shape[1], n_frames), dtype=np.float32)
    for head in weights:  # one head at a time: its [n_positions, n_frames] stays in the CPU's cache
        cropped = head[:, :n_frames].astype(np.float32)
        cropped /= np.maximum(cropped.sum(axis=-1, keepdims=True), np.float32(1e-30))
        mean = cropped.mean(axis=-2, keepdims=True)
        std = cropped.std(axis=-2, keepdims=True)
        total += median_filter7((cropped - mean) / np.maximum(std, np.float32(1e-12)))
    total /= np.float32(len(weights))
    return total


def median_filter7(x: NDArray[np.float32]) -> NDArray[np.float32]:
    """Median of 7 along the last axis, reflect-padded (as torch's reflect pad); inputs of 3
    frames or fewer are returned as they are.

    A 13-exchange sorting network over 7 shifted views (Devillard's opt_med7) rather than a
    partition of a [..., 7] window copy: many times faster on attention-sized inputs. The rows
    go through it `_BLOCK_BYTES` at a time, so the seven copies it works on stay in the CPU's
    cache (about 3x faster than the whole [heads, tokens, frames] matrix at once, the same values)."""
    n = x.shape[-1]
    if n <= MEDIAN_WIDTH // 2:
        return x
    rows = x.reshape(-1, n)
    block = max(1, _BLOCK_BYTES // (n * rows.itemsize))
    out = np.empty_like(rows)
    for start in range(0, rows.shape[0], block):
        out[start : start + block] = _median7_rows(rows[start : start + block])
    return out.reshape(x.shape)


_BLOCK_BYTES = 1 << 19
"""Half a MiB of rows per pass of the sorting network."""


def _median7_rows(x: NDArray[np.float32]) -> NDArray[np.float32]:
    """`median_filter7` of `x` [rows, n] (n > 3) in one pass."""
    pad = MEDIAN_WIDTH // 2
    padded = np.pad(x, [(0, 0), (pad, pad)], mode="reflect")
    n = x.shape[-1]
    p = [padded[:, k : k + n].copy() for k in range(MEDIAN_WIDTH)]
    for a, b in (
        (0, 5),
        (0, 3),
        (1, 6),
        (2, 4),
        (0, 1),
        (3, 5),
        (2, 6),
        (2, 3),
        (3, 6),
        (4, 5),
        (1, 4),
        (1, 3),
        (3, 4),
    ):
        low = np.minimum(p[a], p[b])
        np.maximum(p[a], p[b], out=p[b])
        p[a] = low
    return p[3]


def dtw_path(cost: NDArray[np.float32]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Dynamic time warping over `cost` [N, M] (lower is better): the monotonic path from (0, 0)
    to (N - 1, M - 1) of least total cost, as (row indices, column indices), each [path length].

    The same choices as openai/whisper's cell-by-cell dtw_cpu (diagonal if strictly best, then up,
    else left; so where diagonal and up tie, left is taken), one row at a time: within a row
    C[j] = x[j] + min(a[j], C[j - 1]), with a[j] the better of the cells above (infinite on a tie),
    is a min-plus scan, C = S + running_min(a - S_before) with S the row's cumulative sum.
    N numpy passes over M instead of N * M Python steps."""
    n, m = cost.shape
    x = cost.astype(np.float64)
    previous = np.full(m + 1, np.inf)
    previous[0] = 0.0
    trace = np.full((n + 1, m + 1), 2, dtype=np.int8)
    for i in range(1, n + 1):
        diagonal, up = previous[:-1], previous[1:]  # for columns 1..m
        above = np.where(diagonal == up, np.inf, np.minimum(diagonal, up))
        sums = np.cumsum(x[i - 1])
        before = np.concatenate([[0.0], sums[:-1]])
        row = sums + np.minimum.accumulate(above - before)
        left = np.concatenate([[np.inf], row[:-1]])
        trace[i, 1:] = np.where(above < left, np.where(diagonal < up, 0, 1), 2)
        previous = np.concatenate([[np.inf], row])
    return _backtrace(trace, n, m)


def _backtrace(trace: NDArray[np.int8], n: int, m: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Walk `trace` [n + 1, m + 1] (0 diagonal, 1 up, 2 left) back from (n, m); row 0 moves left,
    column 0 up."""
    i, j = n, m
    path: list[tuple[int, int]] = []
    while i > 0 or j > 0:
        path.append((i - 1, j - 1))
        step = 2 if i == 0 else 1 if j == 0 else int(trace[i, j])
        if step == 0:
            i, j = i - 1, j - 1
        elif step == 1:
            i -= 1
        else:
            j -= 1
    pairs = np.array(path[::-1], dtype=np.int64).reshape(-1, 2)
    return pairs[:, 0], pairs[:, 1]


def token_start_times(matrix: NDArray[np.float32]) -> NDArray[np.float64]:
    """matrix [n_rows, n_frames] (higher = more attention) -> the time in seconds (window-relative)
    at which the DTW path enters each row, [n_rows]."""
    text_indices, time_indices = dtw_path(-matrix)
    jumps = np.concatenate([[True], np.diff(text_indices) != 0])
    starts: NDArray[np.float64] = time_indices[jumps] * SECONDS_PER_FRAME
    return starts

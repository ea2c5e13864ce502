"""openai/whisper's timing.py arithmetic written out plainly, cell by cell: the reference the
word-alignment tests compare Earshot's vectorised versions against."""

from __future__ import annotations

import numpy as np


def reference_median_filter(x: np.ndarray, width: int = 7) -> np.ndarray:
    """openai's median_filter: reflect-pad the last axis, then the median of each window."""
    pad = width // 2
    if x.shape[-1] <= pad:
        return x
    padded = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(pad, pad)], mode="reflect")
    windows = np.lib.stride_tricks.sliding_window_view(padded, width, axis=-1)
    return np.median(windows, axis=-1)


def reference_dtw(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """openai's dtw_cpu + backtrace, cell by cell (in float64)."""
    n, m = x.shape
    cost = np.full((n + 1, m + 1), np.inf)
    trace = -np.ones((n + 1, m + 1))
    cost[0, 0] = 0
    for j in range(1, m + 1):
        for i in range(1, n + 1):
            c0, c1, c2 = cost[i - 1, j - 1], cost[i - 1, j], cost[i, j - 1]
            if c0 < c1 and c0 < c2:
                c, t = c0, 0
            elif c1 < c0 and c1 < c2:
                c, t = c1, 1
            else:
                c, t = c2, 2
            cost[i, j] = x[i - 1, j - 1] + c
            trace[i, j] = t
    trace[0, :] = 2
    trace[:, 0] = 1
    i, j, path = n, m, []
    while i > 0 or j > 0:
        path.append((i - 1, j - 1))
        if trace[i, j] == 0:
            i, j = i - 1, j - 1
        elif trace[i, j] == 1:
            i -= 1
        else:
            j -= 1
    pairs = np.array(path[::-1])
    return pairs[:, 0], pairs[:, 1]

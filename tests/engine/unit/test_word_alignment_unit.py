"""Token times from attention (app/engine/timing/word_alignment.py) against openai/whisper's
timing.py: its median filter, its cell-by-cell dtw_cpu and backtrace, written out plainly here
as the reference. No model: the attention weights are made up."""

from __future__ import annotations

import numpy as np
import pytest
from openai_timing import reference_dtw, reference_median_filter

from app.engine.timing.word_alignment import (
    SECONDS_PER_FRAME,
    attention_matrix,
    dtw_path,
    median_filter7,
    token_start_times,
)


@pytest.mark.parametrize("frames", [1, 3, 4, 7, 50])
def test_median_filter_equals_the_median_of_seven_reflect_padded_frames(frames: int) -> None:
    x = np.random.default_rng(frames).normal(size=(2, 5, frames)).astype(np.float32)
    np.testing.assert_array_equal(median_filter7(x), reference_median_filter(x))


def test_median_filter_removes_a_one_frame_spike_and_keeps_a_step() -> None:
    x = np.zeros((1, 20), dtype=np.float32)
    x[0, 5] = 9.0  # a spike
    x[0, 12:] = 1.0  # a step
    out = median_filter7(x)[0]
    assert out[5] == 0.0
    np.testing.assert_array_equal(out[12:], 1.0)
    np.testing.assert_array_equal(out[:12], 0.0)


@pytest.mark.parametrize("seed", range(6))
def test_dtw_path_is_openais_on_random_costs(seed: int) -> None:
    rng = np.random.default_rng(seed)
    cost = rng.normal(size=(rng.integers(1, 12), rng.integers(1, 40))).astype(np.float32)
    rows, cols = dtw_path(cost)
    ref_rows, ref_cols = reference_dtw(cost.astype(np.float64))
    np.testing.assert_array_equal(rows, ref_rows)
    np.testing.assert_array_equal(cols, ref_cols)


def test_dtw_path_breaks_ties_as_openai_does() -> None:
    """Whole-number costs tie often; openai takes the diagonal only if strictly best, then up, else left."""
    rng = np.random.default_rng(3)
    for _ in range(20):
        cost = rng.integers(0, 3, size=(rng.integers(1, 8), rng.integers(1, 15))).astype(np.float32)
        rows, cols = dtw_path(cost)
        ref_rows, ref_cols = reference_dtw(cost.astype(np.float64))
        np.testing.assert_array_equal(rows, ref_rows)
        np.testing.assert_array_equal(cols, ref_cols)


def test_dtw_path_is_monotonic_from_corner_to_corner_and_follows_the_cheap_cells() -> None:
    cost = np.ones((3, 9), dtype=np.float32)
    cost[0, 0:3] = cost[1, 3:6] = cost[2, 6:9] = 0.0  # three tokens, three frames each
    rows, cols = dtw_path(cost)
    assert (rows[0], cols[0]) == (0, 0) and (rows[-1], cols[-1]) == (2, 8)
    assert np.all(np.diff(rows) >= 0) and np.all(np.diff(cols) >= 0)
    assert cost[rows, cols].sum() == 0.0


def test_token_start_times_are_where_the_path_enters_each_row() -> None:
    matrix = np.zeros((3, 30), dtype=np.float32)
    matrix[0, 0:10] = matrix[1, 10:18] = matrix[2, 18:30] = 1.0  # attention: higher is better
    starts = token_start_times(matrix)
    rows, cols = reference_dtw(-matrix.astype(np.float64))
    entered = cols[np.concatenate([[True], np.diff(rows) != 0])] * SECONDS_PER_FRAME
    np.testing.assert_allclose(starts, entered)
    # Each token starts within a frame of its block: the cheapest path may step up one frame early.
    np.testing.assert_allclose(starts, [0.0, 10 * SECONDS_PER_FRAME, 18 * SECONDS_PER_FRAME], atol=0.021)


def test_attention_matrix_crops_to_the_real_audio_renormalises_and_standardises() -> None:
    """openai: softmax over the cropped frames, z-score over the tokens, median filter, mean over heads."""
    rng = np.random.default_rng(0)
    scores = rng.normal(size=(2, 4, 1500))
    weights = (np.exp(scores) / np.exp(scores).sum(-1, keepdims=True)).astype(np.float32)
    n_mel = 200  # 2 s of audio: 100 encoder frames
    out = attention_matrix(weights, n_mel)
    assert out.shape == (4, 100) and out.dtype == np.float32
    cropped = np.exp(scores[:, :, :100]) / np.exp(scores[:, :, :100]).sum(-1, keepdims=True)
    z = (cropped - cropped.mean(axis=-2, keepdims=True)) / cropped.std(axis=-2, keepdims=True)
    np.testing.assert_allclose(out, reference_median_filter(z).mean(axis=0), rtol=1e-4, atol=1e-5)

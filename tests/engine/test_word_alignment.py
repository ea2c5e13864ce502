"""The alignment arithmetic against plain reference implementations, and the word-timing graph."""

from __future__ import annotations

import numpy as np
import pytest
from earshot_testing import DATA_DIR, read_wav
from openai_timing import reference_dtw

from app.engine.convert.model_facts import default_alignment_heads
from app.engine.decoding.window_decoder import mel_window
from app.engine.runtime.features import log_mel
from app.engine.timing.word_alignment import dtw_path, median_filter7


@pytest.mark.parametrize("shape", [(1, 1), (1, 7), (5, 1), (6, 40), (23, 17), (30, 200)])
def test_vectorised_dtw_equals_the_cell_by_cell_one(shape):
    rng = np.random.default_rng(sum(shape))
    x = rng.normal(size=shape).astype(np.float32)
    rows, cols = dtw_path(x)
    ref_rows, ref_cols = reference_dtw(x.astype(np.float64))
    assert rows.tolist() == ref_rows.tolist() and cols.tolist() == ref_cols.tolist()


def test_dtw_breaks_ties_as_openai_does():
    x = np.zeros((3, 5), dtype=np.float32)  # every path costs the same
    rows, cols = dtw_path(x)
    ref_rows, ref_cols = reference_dtw(x.astype(np.float64))
    assert rows.tolist() == ref_rows.tolist() and cols.tolist() == ref_cols.tolist()


@pytest.mark.parametrize("shape", [(3, 4, 50), (3, 200, 1500)])  # one block of rows; several
def test_median_filter_equals_numpy_median_with_reflect_padding(shape):
    x = np.random.default_rng(0).normal(size=shape).astype(np.float32)
    windows = np.lib.stride_tricks.sliding_window_view(np.pad(x, [(0, 0), (0, 0), (3, 3)], mode="reflect"), 7, -1)
    np.testing.assert_array_equal(median_filter7(x), np.median(windows, axis=-1))
    short = x[..., :3]
    np.testing.assert_array_equal(median_filter7(short), short)


def test_default_heads_are_the_last_half_of_the_layers(engine):
    heads = default_alignment_heads(engine.runtime.facts.dims)
    assert heads == [(layer, head) for layer in (2, 3) for head in range(6)]
    assert engine.runtime.facts.alignment_heads_source == "model"  # tiny.en's config.json names 8
    assert len(engine.runtime.facts.alignment_heads) == 8


def test_one_decoder_session_gives_the_steps_and_the_words_attention(engine):
    """Per step [batch, heads, 1, 1500] for beams sharing one audio; softmax rows sum to 1;
    the logits with the attention fetched are those of a plain step. No second session exists."""
    runtime = engine.runtime
    assert "alignment_weights" in [o.name for o in runtime.decoder.get_outputs()]
    mel = log_mel(read_wav(DATA_DIR / "espeak_meeting.wav"), runtime.facts.dims.n_mels)
    cross = runtime.encode(mel_window(mel, 0, mel.shape[-1]))
    prompt = np.array([[runtime.tokenizer.sot, runtime.tokenizer.no_timestamps]], dtype=np.int64)
    logits, _cache = runtime.decode(prompt, runtime.new_cache(1), cross)
    logits_w, cache_w, weights = runtime.decode_with_alignment(prompt, runtime.new_cache(1), cross)
    np.testing.assert_allclose(logits_w, logits, atol=1e-4)
    assert weights.shape == (1, 8, 2, 1500)
    beams = np.array([[3], [4], [5]], dtype=np.int64)
    _, _, step = runtime.decode_with_alignment(beams, cache_w, cross, np.zeros(3, dtype=np.int64))
    assert step.shape == (3, 8, 1, 1500)
    np.testing.assert_allclose(step.sum(axis=-1), 1.0, atol=1e-4)


def test_word_decoder_of_a_model_with_weights_in_a_side_file(engine, tmp_path):
    """Decoders over protobuf's 2 GiB keep their weights in `decoder.onnx.data`: the word-timing
    graph links to that file instead of loading it into one protobuf (here tiny.en saved so)."""
    import onnx

    from app.engine.runtime.alignment_graph import ALIGNMENT_OUTPUT, decoder_session
    from app.engine.runtime.ort_sessions import SessionConfig

    model = onnx.load(str(engine.runtime.model_dir / "decoder.onnx"))
    onnx.save(model, str(tmp_path / "decoder.onnx"), save_as_external_data=True, location="decoder.onnx.data")
    session, _, _ = decoder_session(tmp_path / "decoder.onnx", SessionConfig())
    assert ALIGNMENT_OUTPUT in [o.name for o in session.get_outputs()]

"""Mixed vocabulary tables (app/engine/convert/vocab_table.py, `coarse_rows`): only a range of rows
(the rare text tokens) re-quantized at fewer distinct codes, in the int8 table's own 8-bit cells and
blocks, every other row kept bit for bit. The bundle's shipped table (packaging/build_model.py
`SHIPPED_VOCABULARY`, measured by bench/vocab_formats.py `m4-b32-r...`)."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import numpy_helper
from vocab_readers import int8_readers

from app.engine.convert.vocab_table import VocabularyFormat, block_codes, dequantize, requantize_vocabulary

ROWS, STATE, BLOCK = 96, 384, 32
COARSE = (40, 80)
INT8 = VocabularyFormat(8, 8, BLOCK)


def _table() -> np.ndarray:
    """[ROWS, STATE] float32, embedding-like values, one outlier per row."""
    rng = np.random.default_rng(5)
    table = rng.standard_normal((ROWS, STATE)).astype(np.float32) * 0.05
    table[np.arange(ROWS), rng.integers(0, STATE, ROWS)] *= 6
    return table


def _int8_decoder(table: np.ndarray) -> onnx.ModelProto:
    """The int8 decoder's two readers of one shared 8-bit table of `table` (as the converter
    writes it: [rows, blocks, 32] uint8 codes, zero point 128, fp16-exact float32 scales)."""
    return int8_readers(*block_codes(table, INT8))


def _arrays(model: onnx.ModelProto) -> dict[str, np.ndarray]:
    return {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}


def test_rows_outside_the_range_keep_their_int8_codes_and_scales() -> None:
    table = _table()
    before = _arrays(_int8_decoder(table))
    fmt = VocabularyFormat(4, 8, BLOCK, coarse_rows=COARSE)
    after = _arrays(requantize_vocabulary(_int8_decoder(table), table, fmt))
    codes, scales = after["decoder.projection_t_Q8"], after["scales"]
    assert codes.shape == before["decoder.projection_t_Q8"].shape and codes.dtype == np.uint8
    kept = np.r_[0:COARSE[0], COARSE[1]:ROWS]
    np.testing.assert_array_equal(codes[kept], before["decoder.projection_t_Q8"][kept])
    np.testing.assert_array_equal(scales[kept], before["scales"][kept])
    np.testing.assert_array_equal(after["gather_scales"], scales[..., None])  # both readers, one set of scales
    inside = slice(*COARSE)
    assert not np.array_equal(codes[inside], before["decoder.projection_t_Q8"][inside])
    distinct = [len(np.unique(block)) for block in codes[inside].reshape(-1, BLOCK)]
    assert max(distinct) <= 16  # 4-bit codes in 8-bit cells
    assert codes[inside].min() >= 128 - 8 and codes[inside].max() <= 128 + 7
    assert np.array_equal(scales.astype(np.float16).astype(np.float32), scales)  # the bundle stores fp16


def test_the_coarse_rows_error_is_bounded_by_their_block() -> None:
    """Each weight of a coarse row is within 0.1 x its block's absmax (half a 4-bit step, or the
    clipping of a scale picked below absmax / 7); the int8 rows are untouched, so far closer."""
    table = _table()
    fmt = VocabularyFormat(4, 8, BLOCK, coarse_rows=COARSE)
    after = _arrays(requantize_vocabulary(_int8_decoder(table), table, fmt))
    weights = dequantize(after["decoder.projection_t_Q8"], after["scales"], fmt)
    error = np.abs(weights - table).reshape(ROWS, -1, BLOCK)
    absmax = np.abs(table).reshape(ROWS, -1, BLOCK).max(axis=2, keepdims=True)
    assert (error[slice(*COARSE)] <= 0.1 * absmax[slice(*COARSE)] + 1e-7).all()
    assert error[slice(*COARSE)].mean() > 4 * error[:COARSE[0]].mean()  # coarser inside, int8 outside


def test_both_readers_compute_the_mixed_rows() -> None:
    """onnxruntime's embedding gathers exactly code * scale of the mixed table and the projection
    multiplies by those rows (same kernels as int8: only the codes changed)."""
    table = _table()
    model = requantize_vocabulary(_int8_decoder(table), table, VocabularyFormat(4, 8, BLOCK, coarse_rows=COARSE))
    arrays = _arrays(model)
    rows = dequantize(arrays["decoder.projection_t_Q8"], arrays["scales"], INT8)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    state = np.random.default_rng(0).standard_normal((1, STATE)).astype(np.float32)
    tokens = np.array([0, COARSE[0], COARSE[1] - 1, ROWS - 1], dtype=np.int64)
    logits, gathered = session.run(None, {"state": state, "tokens": tokens})
    np.testing.assert_array_equal(gathered.reshape(len(tokens), STATE), rows[tokens])
    np.testing.assert_allclose(logits[0], rows @ state[0], rtol=1e-4, atol=1e-4)


def test_formats_the_int8_layout_cannot_hold_are_refused() -> None:
    with pytest.raises(ValueError, match="8-bit cells"):
        VocabularyFormat(4, 4, BLOCK, coarse_rows=COARSE)
    with pytest.raises(ValueError, match="8-bit cells"):
        VocabularyFormat(4, 8, BLOCK, asymmetric=True, coarse_rows=COARSE)
    with pytest.raises(ValueError, match="start < stop"):
        VocabularyFormat(4, 8, BLOCK, coarse_rows=(50, 50))
    table = _table()
    with pytest.raises(ValueError, match="blocks of 64"):  # the int8 table's blocks are 32
        requantize_vocabulary(_int8_decoder(table), table, VocabularyFormat(4, 8, 64, coarse_rows=COARSE))
    with pytest.raises(ValueError, match="do not fit"):
        requantize_vocabulary(_int8_decoder(table), table, VocabularyFormat(4, 8, BLOCK, coarse_rows=(10, ROWS + 1)))

"""Asymmetric 4-bit vocabulary tables (app/engine/convert/vocab_table.py, `asymmetric=True`): a zero
point per block, stored once and read by both of onnxruntime's kernels (MatMulNBits packed, two per
byte; GatherBlockQuantized one per byte, unpacked by nodes folded at load). Measured as a bundle
option (bench/vocab_formats.py `a4-b32`, docs/packaging.md)."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
from vocab_readers import int8_readers

from app.engine.convert.vocab_table import (
    VocabularyFormat,
    asymmetric_codes,
    block_codes,
    dequantize,
    requantize_vocabulary,
)

ROWS, STATE, BLOCK = 64, 384, 32


def _int8_readers() -> onnx.ModelProto:
    """The int8 decoder's two readers of its shared vocabulary table, on a placeholder table."""
    n_blocks = STATE // BLOCK
    return int8_readers(np.zeros((ROWS, n_blocks, BLOCK), np.uint8), np.ones((ROWS, n_blocks), np.float32))


def _skewed_table() -> np.ndarray:
    """Embedding-like rows whose blocks are not centred on zero (where a zero point helps)."""
    rng = np.random.default_rng(3)
    return (rng.standard_normal((ROWS, STATE)) * 0.05 + rng.uniform(-0.05, 0.05, (ROWS, 1))).astype(np.float32)


def test_both_readers_compute_the_dequantized_rows() -> None:
    """The embedding gathers exactly (code - zero point) * scale, and the projection multiplies by
    those rows: one 4-bit table, one zero-point table, both kernels agree with the arithmetic."""
    table = _skewed_table()
    model = requantize_vocabulary(_int8_readers(), table, VocabularyFormat(4, 4, BLOCK, asymmetric=True))
    codes, scales, zero_points = asymmetric_codes(table.reshape(ROWS, -1, BLOCK), 4)
    rows = ((codes.astype(np.float32) - zero_points[..., None]) * scales[..., None]).reshape(ROWS, STATE)
    sizes = {t.name: int(np.prod(t.dims)) for t in model.graph.initializer}
    assert sizes["decoder.vocabulary_zero_points"] == ROWS * STATE // BLOCK // 2  # two per byte, stored once
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    state = np.random.default_rng(0).standard_normal((1, STATE)).astype(np.float32)
    tokens = np.array([0, 5, ROWS - 1], dtype=np.int64)
    logits, gathered = session.run(None, {"state": state, "tokens": tokens})
    np.testing.assert_array_equal(gathered.reshape(len(tokens), STATE), rows[tokens])
    np.testing.assert_allclose(logits[0], rows @ state[0], rtol=1e-4, atol=1e-4)


def test_a_zero_point_per_block_has_less_error_than_symmetric_codes() -> None:
    table = _skewed_table()
    symmetric_fmt = VocabularyFormat(4, 4, BLOCK)
    codes, scales = block_codes(table, symmetric_fmt)
    symmetric = dequantize(codes, scales, symmetric_fmt)
    codes, scales, zero_points = asymmetric_codes(table.reshape(ROWS, -1, BLOCK), 4)
    assert codes.max() <= 15 and zero_points.max() <= 15
    assert np.array_equal(scales.astype(np.float16).astype(np.float32), scales)  # stored as fp16 exactly
    asymmetric = ((codes.astype(np.float32) - zero_points[..., None]) * scales[..., None]).reshape(ROWS, STATE)
    assert ((asymmetric - table) ** 2).sum() < 0.9 * ((symmetric - table) ** 2).sum()

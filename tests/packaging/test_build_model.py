"""The bundled model as packaging/build_model.py stages it from a real int8 conversion: the
vocabulary's scales, which the token embedding and the output projection both read, are stored once
(1.2 MB less for tiny.en), and the staged graphs still give the converter's tokens and
log-probabilities bit for bit."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import numpy as np
import onnx
from earshot_testing import REPO_ROOT

from app.engine.convert.int8_kernels import PORTABLE_ENV
from app.engine.convert.layout import DECODER_FILE, ENCODER_FILE, TOKENIZER_FILE
from app.engine.model_store import ModelStore
from app.engine.types import Precision

sys.path.insert(0, str(REPO_ROOT / "packaging"))
from build_model import compact_graph, verify_same_results


def _float_tables(path: Path) -> list[tuple[int, ...]]:
    """Shapes of the float initializers with more than 100k elements (the big tables)."""
    model = onnx.load(str(path))
    return sorted(tuple(t.dims) for t in model.graph.initializer
                  if t.data_type in (onnx.TensorProto.FLOAT, onnx.TensorProto.FLOAT16) and np.prod(t.dims) > 100_000)


def test_staged_int8_decoder_stores_the_vocabulary_scales_once(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv(PORTABLE_ENV, "1")  # as the build converts it
    store = ModelStore()
    converted = store.converted(store.resolve(None), Precision.INT8)
    before = _float_tables(converted / DECODER_FILE)
    assert len([s for s in before if s[0] == 51864]) == 2  # [51864, 12] and [51864, 12, 1]: the same numbers
    for name in (ENCODER_FILE, DECODER_FILE):
        compact_graph(converted / name, tmp_path / name)
    shutil.copy2(converted / TOKENIZER_FILE, tmp_path / TOKENIZER_FILE)
    assert len([s for s in _float_tables(tmp_path / DECODER_FILE) if s[0] == 51864]) == 1
    verify_same_results(converted, tmp_path, REPO_ROOT / "resources" / "selftest.wav")  # raises if not

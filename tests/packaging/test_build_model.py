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
from app.engine.models.store import ModelStore
from app.engine.types import Precision

sys.path.insert(0, str(REPO_ROOT / "packaging"))
import build_model
from build_model import POSITIONS, compact_graph, computed_positions, verify_same_results, whisper_sinusoids


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
        compact_graph(converted / name, tmp_path / name, positions_computed=True)
    shutil.copy2(converted / TOKENIZER_FILE, tmp_path / TOKENIZER_FILE)
    assert len([s for s in _float_tables(tmp_path / DECODER_FILE) if s[0] == 51864]) == 1
    assert (1500, 384) in _float_tables(converted / ENCODER_FILE)
    assert (1500, 384) not in _float_tables(tmp_path / ENCODER_FILE)  # computed at load (`computed_positions`)
    compact_graph(converted / ENCODER_FILE, tmp_path / "default.onnx")
    assert (1500, 384) in _float_tables(tmp_path / "default.onnx")  # as the bundle ships: COMPUTED_POSITIONS off
    verify_same_results(converted, tmp_path, REPO_ROOT / "resources" / "selftest.wav")  # raises if not


def _positions_model(table: np.ndarray) -> onnx.ModelProto:
    """A graph whose one output is the `encoder.positions` initializer ([frames, state] float32)."""
    from onnx import TensorProto, helper, numpy_helper

    graph = helper.make_graph([helper.make_node("Identity", [POSITIONS], ["table"])], "positions", [],
                              [helper.make_tensor_value_info("table", TensorProto.FLOAT, list(table.shape))],
                              [numpy_helper.from_array(table, POSITIONS)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_the_computed_position_table_is_the_stored_one_bit_for_bit() -> None:
    """onnxruntime, with the app's session options, computes tiny.en's sinusoid table exactly as its
    checkpoint stores it (1500 x 384 fp16 widened to float32), so the bundle need not store it."""
    import onnxruntime as ort

    from app.engine.convert.readers import read_weights

    stored = read_weights(ModelStore().resolve(None).source).tensors["encoder/position_encodings/encodings"]
    table = stored.astype(np.float32)
    model = _positions_model(table)
    nodes = computed_positions(model.graph)
    assert nodes and POSITIONS not in {t.name for t in model.graph.initializer}
    for index, node in enumerate(nodes):
        model.graph.node.insert(index, node)
    onnx.checker.check_model(model)
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL  # as ort_sessions.py
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    computed = session.run(None, {})[0]
    assert computed.dtype == np.float32 and computed.shape == table.shape
    np.testing.assert_array_equal(computed, table)


def test_a_table_that_is_not_whispers_sinusoids_stays_stored() -> None:
    table = whisper_sinusoids(1500, 384).astype(np.float16).astype(np.float32)  # rounded without float32: 37 differ
    model = _positions_model(table)
    assert computed_positions(model.graph) == []
    assert [t.name for t in model.graph.initializer] == [POSITIONS]


def test_the_shipped_vocabulary_keeps_int8s_frequent_rows_and_its_words(tmp_path: Path, monkeypatch) -> None:
    """The bundle's mixed table (`SHIPPED_VOCABULARY`) on the real tiny.en: rows outside its coarse
    range are int8's bit for bit, rows inside hold `code_bits` codes (int8's span more), and the
    committed espeak meeting clip decodes to int8's words at beam 5."""
    from earshot_testing import DATA_DIR, read_wav
    from onnx import numpy_helper

    from app.engine.runtime.ort_sessions import SessionConfig
    from app.engine.runtime.whisper_runtime import WhisperRuntime
    from app.engine.transcribe.whisper_engine import WhisperEngine
    from app.engine.types import DecodeOptions

    fmt = build_model.SHIPPED_VOCABULARY
    assert fmt is not None and fmt.coarse_rows is not None
    monkeypatch.setenv(PORTABLE_ENV, "1")
    store = ModelStore()
    entry = store.resolve(None)
    converted = store.converted(entry, Precision.INT8)
    mixed = build_model._with_vocabulary(entry.source, converted, tmp_path / "mixed", fmt)
    tables = [{t.name: numpy_helper.to_array(t) for t in onnx.load(str(f / DECODER_FILE)).graph.initializer}
              ["decoder.projection_t_Q8"] for f in (converted, mixed)]
    start, stop = fmt.coarse_rows
    for rows in (slice(0, start), slice(stop, None)):
        np.testing.assert_array_equal(tables[1][rows], tables[0][rows])
    half = 1 << (fmt.code_bits - 1)  # codes within the zero point 128 -half .. +half - 1
    assert tables[1][start:stop].min() >= 128 - half and tables[1][start:stop].max() <= 128 + half - 1
    assert tables[0][start:stop].max() > 128 + half  # int8's rows span more
    audio = read_wav(DATA_DIR / "espeak_meeting.wav")
    options = DecodeOptions(beam_size=5, condition_on_previous_text=False)
    texts = [" ".join(s.text.strip() for s in WhisperEngine(WhisperRuntime(f, SessionConfig("cpu", 1)), "t",
                                                             Precision.INT8).transcribe(audio, options)[0])
             for f in (converted, mixed)]
    assert texts[0] and texts[1] == texts[0], texts

"""`int8-small`: the int8 model with its shared vocabulary table (token embedding = output
projection) in 4-bit cells (app/engine/convert/vocab_table.py), on the real tiny.en."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from earshot_testing import DATA_DIR, read_wav
from onnx import TensorProto, helper, numpy_helper

from app.engine.convert.quantize import SMALL_VOCABULARY
from app.engine.convert.vocab_table import VocabularyFormat, block_codes, dequantize, pack_cells
from app.engine.models.loader import load_engine
from app.engine.types import DecodeOptions, Precision

VOCAB = 51864


def _decoder(precision: Precision) -> onnx.ModelProto:
    return onnx.load(str(load_engine(precision=precision).runtime.model_dir / "decoder.onnx"))


def _node(model: onnx.ModelProto, op_type: str, projection: bool = False) -> onnx.NodeProto:
    return next(n for n in model.graph.node
                if n.op_type == op_type and (not projection or n.input[1].startswith("decoder.projection_t")))


def test_int8_small_writes_int8s_text_on_a_committed_clip() -> None:
    """The committed espeak meeting clip decodes to the same words as int8, greedy and beam 5."""
    audio = read_wav(DATA_DIR / "espeak_meeting.wav")
    engines = [load_engine(precision=p) for p in (Precision.INT8, Precision.INT8_SMALL)]
    assert engines[1].precision is Precision.INT8_SMALL
    for beam in (1, 5):
        options = DecodeOptions(beam_size=beam, condition_on_previous_text=False)
        texts = [" ".join(s.text.strip() for s in e.transcribe(audio, options)[0]) for e in engines]
        assert texts[0] and texts[1] == texts[0], texts


def test_int8_small_embedding_and_projection_read_one_4bit_table() -> None:
    """Both readers of the vocabulary use the same initializer, in 4-bit cells (two per byte); no
    other table the size of the vocabulary is left, and the decoder is ~10 MB smaller than int8's."""
    small, int8 = _decoder(Precision.INT8_SMALL), _decoder(Precision.INT8)
    projection, gather = _node(small, "MatMulNBits", projection=True), _node(small, "GatherBlockQuantized")
    assert gather.input[0] == projection.input[1]
    for node in (projection, gather):
        attributes = {a.name: a.i for a in node.attribute}
        assert (attributes["bits"], attributes["block_size"]) == (4, SMALL_VOCABULARY.block)
    tables = {t.name: tuple(t.dims) for t in small.graph.initializer if t.dims and t.dims[0] == VOCAB}
    assert tables[projection.input[1]] == (VOCAB, 384 // SMALL_VOCABULARY.block, SMALL_VOCABULARY.block // 2)
    assert set(tables) == {projection.input[1], projection.input[2], gather.input[2]}  # the table and its scales
    assert small.ByteSize() < int8.ByteSize() - 9_000_000


def test_both_readers_compute_the_same_dequantized_rows() -> None:
    """onnxruntime's two 4-bit kernels, on the real tiny.en table, give dequantize()'s rows: the
    embedding gathers exactly them, and the projection multiplies by them (accuracy level 0)."""
    small = _decoder(Precision.INT8_SMALL)
    projection, gather = _node(small, "MatMulNBits", projection=True), _node(small, "GatherBlockQuantized")
    inits = {t.name: t for t in small.graph.initializer}
    cells, scales, gather_scales = (numpy_helper.to_array(inits[n])
                                    for n in (projection.input[1], projection.input[2], gather.input[2]))
    fmt = SMALL_VOCABULARY
    codes = np.stack([cells & 15, cells >> 4], axis=-1).reshape(*cells.shape[:2], -1)  # unpack, low nibble first
    rows = dequantize(codes, scales.reshape(codes.shape[:2]).astype(np.float32), fmt)
    graph = helper.make_graph(
        [helper.make_node("GatherBlockQuantized", ["table", "tokens", "gather_scales"], ["gathered"],
                          domain="com.microsoft", gather_axis=0, quantize_axis=2, block_size=fmt.block, bits=4),
         helper.make_node("MatMulNBits", ["state", "table", "scales"], ["logits"], domain="com.microsoft",
                          K=384, N=VOCAB, bits=4, block_size=fmt.block, accuracy_level=0)],
        "readers", [helper.make_tensor_value_info("tokens", TensorProto.INT64, [None]),
                    helper.make_tensor_value_info("state", TensorProto.FLOAT, [1, 384])],
        [helper.make_tensor_value_info("gathered", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("logits", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(cells, "table"), numpy_helper.from_array(scales.astype(np.float32), "scales"),
         numpy_helper.from_array(gather_scales, "gather_scales")])
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)]
    model = helper.make_model(graph, opset_imports=opsets)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    tokens = np.array([0, 220, 50256, VOCAB - 1], dtype=np.int64)
    state = np.random.default_rng(0).standard_normal((1, 384)).astype(np.float32)
    gathered, logits = session.run(None, {"tokens": tokens, "state": state})
    assert np.array_equal(gather_scales.reshape(scales.shape), scales)  # the same scales, both readers
    np.testing.assert_array_equal(gathered.reshape(len(tokens), 384), rows[tokens])
    np.testing.assert_allclose(logits[0], rows @ state[0], rtol=1e-4, atol=1e-3)


def test_block_codes_choose_the_scale_with_the_least_error() -> None:
    """The per-block scale search never does worse than plain absmax scaling, and the codes
    round-trip through the 4-bit packing."""
    fmt = VocabularyFormat(code_bits=4, storage_bits=4, block=32)
    table = np.random.default_rng(1).standard_t(4, size=(64, 384)).astype(np.float32) * 0.05
    codes, scales = block_codes(table, fmt)
    assert codes.min() >= 0 and codes.max() <= 15
    assert np.array_equal(scales.astype(np.float16).astype(np.float32), scales)  # stored as fp16 exactly
    blocks = table.reshape(64, 12, 32)
    plain_scale = np.abs(blocks).max(axis=2, keepdims=True) / 7
    plain = np.clip(np.rint(blocks / plain_scale), -8, 7) * plain_scale
    searched = dequantize(codes, scales, fmt).reshape(blocks.shape)
    assert ((searched - blocks) ** 2).sum() < ((plain - blocks) ** 2).sum()
    packed = pack_cells(codes, 4)
    assert packed.shape == (64, 12, 16)
    assert np.array_equal(np.stack([packed & 15, packed >> 4], axis=-1).reshape(codes.shape), codes)


@pytest.mark.parametrize(("code_bits", "storage_bits", "block"), [(5, 4, 32), (4, 6, 32), (4, 4, 48), (1, 8, 32)])
def test_vocabulary_format_rejects_what_the_kernels_cannot_read(code_bits: int, storage_bits: int, block: int) -> None:
    with pytest.raises(ValueError, match="must be"):
        VocabularyFormat(code_bits, storage_bits, block)

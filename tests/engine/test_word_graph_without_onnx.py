"""The word-timing decoder is built from the decoder's bytes without the `onnx` package, whose
import (with ml_dtypes) takes up to a second of every short `earshot transcribe` run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from earshot_testing import DATA_DIR
from onnx import TensorProto, helper, numpy_helper

from app.engine.convert.layout import cross_weights_name
from app.engine.convert.model_facts import METADATA_KEY
from app.engine.runtime import onnx_wire
from app.engine.runtime.alignment_graph import ALIGNMENT_OUTPUT, decoder_graph, heads_by_layer

REPO = Path(__file__).resolve().parents[2]


def _with_onnx_helper(decoder: Path, heads: list[tuple[int, int]]) -> onnx.ModelProto:
    """The same output added the usual way: the graph parsed, nodes appended, written back."""
    model = onnx.load(str(decoder), load_external_data=False)
    graph, node, parts = model.graph, helper.make_node, []
    constants = {"align_a": [len(heads)], "align_minus1": [-1]}
    for layer, layer_heads in heads_by_layer(heads).items():
        constants[f"align_heads_{layer}"] = layer_heads
        parts.append(f"align_part_{layer}")
        graph.node.append(node("Gather", [cross_weights_name(layer), f"align_heads_{layer}"], [parts[-1]], axis=1))
    for name, values in constants.items():
        graph.initializer.append(numpy_helper.from_array(np.array(values, dtype=np.int64), name))
    graph.node.extend([
        node("Concat", parts, ["align_grouped"], axis=1),
        node("Cast", ["align_grouped"], ["align_float"], to=TensorProto.FLOAT),
        node("Shape", ["tokens"], ["align_n_tokens"], start=1, end=2),
        node("Shape", ["align_float"], ["align_frames"], start=3, end=4),
        node("Shape", ["align_float"], ["align_audio"], start=0, end=1),
        node("Concat", ["align_audio", "align_a", "align_minus1", "align_n_tokens", "align_frames"],
             ["align_shape5"], axis=0),
        node("Reshape", ["align_float", "align_shape5"], ["align_5d"]),
        node("Transpose", ["align_5d"], ["align_rows"], perm=[0, 2, 1, 3, 4]),
        node("Concat", ["align_minus1", "align_a", "align_n_tokens", "align_frames"], ["align_shape4"], axis=0),
        node("Reshape", ["align_rows", "align_shape4"], [ALIGNMENT_OUTPUT]),
    ])
    shape = ["batch", len(heads), "n_tokens", "n_frames"]
    graph.output.append(helper.make_tensor_value_info(ALIGNMENT_OUTPUT, TensorProto.FLOAT, shape))
    return model


def test_the_word_graph_equals_the_one_onnx_helper_builds(engine):
    decoder = engine.runtime.model_dir / "decoder.onnx"
    heads = list(engine.runtime.facts.alignment_heads)
    ours = onnx.load_from_string(decoder_graph(decoder))  # the heads from the file's metadata
    onnx.checker.check_model(ours)
    assert ours.SerializeToString() == _with_onnx_helper(decoder, heads).SerializeToString()


def test_the_metadata_read_from_the_wire_is_what_onnxruntime_reads(engine):
    decoder = engine.runtime.model_dir / "decoder.onnx"
    assert onnx_wire.metadata(decoder.read_bytes()) == engine.runtime.decoder.get_modelmeta().custom_metadata_map
    assert METADATA_KEY in onnx_wire.metadata(decoder.read_bytes())


def test_a_damaged_decoder_is_opened_as_it_is_for_onnxruntime_to_refuse(tmp_path):
    """Bytes that are not a model get no alignment output added and no error of their own: they
    reach onnxruntime as they are, whose refusal the model store handles (test_model_integrity.py)."""
    garbage = np.random.default_rng(0).bytes(5000)
    for name, data in [("random", garbage), ("cut", b"\x0a\xff\xff\xff\x0f"), ("empty", b"")]:
        path = tmp_path / f"{name}.onnx"
        path.write_bytes(data)
        assert decoder_graph(path) == data
    with pytest.raises(ValueError, match="past the end"):
        onnx_wire.metadata(b"\x0a\xff\xff\xff\x0f")


def test_words_are_timed_without_importing_onnx(engine, tmp_path):
    """`earshot transcribe --word-timestamps` in a fresh process writes word times, and
    `-X importtime` lists neither onnx nor ml_dtypes. The first run may build what is cached once
    per machine (the converted model, the speech map's batched graph) with onnx; the second run
    is what every later one costs."""
    clip = DATA_DIR / "espeak_meeting.wav"
    command = [sys.executable, "-X", "importtime", "-m", "app", "transcribe", str(clip), "--precision", "fp32",
               "--word-timestamps", "--format", "json", "--output-dir", str(tmp_path)]
    for _ in range(2):
        done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    words = [w for s in json.loads((tmp_path / "espeak_meeting.json").read_text())["segments"] for w in s["words"]]
    assert len(words) >= 5
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "os" in imported  # the listing is there
    assert not {name for name in imported if name.split(".")[0] in ("onnx", "ml_dtypes")}

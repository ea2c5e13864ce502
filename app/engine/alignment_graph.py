"""The word-timing decoder: `decoder.onnx` plus one output, the alignment heads' cross-attention.

onnxruntime runs every node of a graph whatever outputs a run asks for (measured: a branch that
feeds only an unrequested output, or no output at all, costs its full time), so the plain decoder
carries no alignment output and no node for one. When words are asked for, this module derives a
second session from the same file: the named weights `cross_weights_{layer}` (see
convert/decoder_graph.py) of the alignment heads gathered into

  `alignment_weights`  [batch, n_alignment_heads, n_tokens, 1500] float32

(per step n_tokens is 1; a teacher-forced pass gives every position). The plain session, which
chooses the tokens, is not touched, so the text with words on is the text without.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import onnxruntime as ort

from app.engine.convert.layout import cross_weights_name
from app.engine.sessions import SessionConfig, create_session_from_bytes

log = logging.getLogger(__name__)

ALIGNMENT_OUTPUT = "alignment_weights"


def heads_by_layer(heads: Sequence[tuple[int, int]]) -> dict[int, list[int]]:
    """(layer, head) pairs -> {layer: [heads]} in layer order, heads in the given order."""
    grouped: dict[int, list[int]] = {}
    for layer, head in heads:
        grouped.setdefault(int(layer), []).append(int(head))
    return dict(sorted(grouped.items()))


def build_alignment_graph(decoder_path: Path, heads: Sequence[tuple[int, int]]) -> bytes:
    """The serialized decoder with the `alignment_weights` output added (onnx imported only here)."""
    import onnx
    from onnx import TensorProto, helper

    model = onnx.load(str(decoder_path), load_external_data=False)
    if any(t.data_location == TensorProto.EXTERNAL for t in model.graph.initializer):
        onnx.load_external_data_for_model(model, str(decoder_path.parent))
    graph, nodes = model.graph, []
    parts = []
    for layer, layer_heads in heads_by_layer(heads).items():
        index = f"align_heads_{layer}"
        graph.initializer.append(onnx.numpy_helper.from_array(np.array(layer_heads, dtype=np.int64), index))
        part = f"align_part_{layer}"
        nodes.append(helper.make_node("Gather", [cross_weights_name(layer), index], [part], axis=1))
        parts.append(part)
    nodes.append(helper.make_node("Concat", parts, ["align_grouped"], axis=1))  # [audio_batch, A, queries, F]
    nodes.append(helper.make_node("Cast", ["align_grouped"], ["align_float"], to=TensorProto.FLOAT))
    # queries = rows_per_audio * n_tokens: split them, move the rows next to the audio batch.
    n_tokens = "align_n_tokens"
    nodes.append(helper.make_node("Shape", ["tokens"], [n_tokens], start=1, end=2))
    frames_and_heads = [("align_a", len(heads)), ("align_minus1", -1)]
    for name, value in frames_and_heads:
        graph.initializer.append(onnx.numpy_helper.from_array(np.array([value], dtype=np.int64), name))
    graph.initializer.append(onnx.numpy_helper.from_array(np.array([0], dtype=np.int64), "align_zero"))
    nodes.append(helper.make_node("Shape", ["align_float"], ["align_frames"], start=3, end=4))
    nodes.append(helper.make_node("Shape", ["align_float"], ["align_audio"], start=0, end=1))
    nodes.append(helper.make_node("Concat", ["align_audio", "align_a", "align_minus1", n_tokens, "align_frames"],
                                  ["align_shape5"], axis=0))
    nodes.append(helper.make_node("Reshape", ["align_float", "align_shape5"], ["align_5d"]))
    nodes.append(helper.make_node("Transpose", ["align_5d"], ["align_rows"], perm=[0, 2, 1, 3, 4]))
    nodes.append(helper.make_node("Concat", ["align_minus1", "align_a", n_tokens, "align_frames"],
                                  ["align_shape4"], axis=0))
    nodes.append(helper.make_node("Reshape", ["align_rows", "align_shape4"], [ALIGNMENT_OUTPUT]))
    graph.node.extend(nodes)
    graph.output.append(helper.make_tensor_value_info(ALIGNMENT_OUTPUT, TensorProto.FLOAT,
                                                      ["batch", len(heads), "n_tokens", "n_frames"]))
    data: bytes = model.SerializeToString()
    return data


def alignment_session(decoder_path: Path, heads: Sequence[tuple[int, int]],
                      config: SessionConfig) -> ort.InferenceSession:
    """An onnxruntime session of the word-timing decoder (built in memory, a few hundred ms)."""
    if not heads:
        raise ValueError("the model names no alignment heads")
    return create_session_from_bytes(build_alignment_graph(decoder_path, heads), config)

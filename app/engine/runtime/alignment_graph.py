"""The decoder's graph with one output added: the alignment heads' cross-attention.

The converted `decoder.onnx` computes each layer's cross-attention weights under the names
`cross_weights_{layer}` (see convert/decoder_graph.py). The runtime opens it with the
alignment heads' weights gathered into one more output,

  `alignment_weights`  [batch, n_alignment_heads, n_tokens, 1500] float32

(per step n_tokens is 1; a teacher-forced pass gives every position). onnxruntime runs every
node whatever outputs a run asks for, but these few (a Gather per layer, a Concat, a Cast, two
Reshapes and a Transpose over [rows, heads, 1, 1500] per step) cost nothing measurable beside a
decoder step, so one session serves both the decoding steps, which do not fetch the output,
and the word-timing pass, which does: no second session of the same weights is built or held.
The tokens chosen are those of the file as it is: the added nodes only read its tensors.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

import onnxruntime as ort

from app.engine.convert.layout import cross_weights_name
from app.engine.convert.model_facts import METADATA_KEY, ModelFacts
from app.engine.runtime import onnx_wire as wire
from app.engine.runtime.ort_sessions import SessionConfig, create_session

ALIGNMENT_OUTPUT = "alignment_weights"
_FLOAT = 1  # TensorProto.FLOAT

log = logging.getLogger(__name__)


def heads_by_layer(heads: Sequence[tuple[int, int]]) -> dict[int, list[int]]:
    """(layer, head) pairs -> {layer: [heads]} in layer order, heads in the given order."""
    grouped: dict[int, list[int]] = {}
    for layer, head in heads:
        grouped.setdefault(int(layer), []).append(int(head))
    return dict(sorted(grouped.items()))


def alignment_extension(heads: Sequence[tuple[int, int]]) -> bytes:
    """The nodes, constants and output that gather the alignment heads' cross-attention weights
    (`cross_weights_{layer}`, [audio_batch, heads, queries, 1500] per layer) into `alignment_weights`."""
    constants = {"align_a": [len(heads)], "align_minus1": [-1]}
    parts, nodes = [], []
    for layer, layer_heads in heads_by_layer(heads).items():
        constants[f"align_heads_{layer}"] = layer_heads
        parts.append(f"align_part_{layer}")
        nodes.append(wire.node("Gather", [cross_weights_name(layer), f"align_heads_{layer}"], [parts[-1]], axis=1))
    nodes += _to_rows(parts)
    initializers = [wire.int64_tensor(name, values) for name, values in constants.items()]
    output = wire.tensor_output(ALIGNMENT_OUTPUT, _FLOAT, ["batch", len(heads), "n_tokens", "n_frames"])
    return wire.graph_extension(nodes, initializers, [output])


def _to_rows(parts: list[str]) -> list[bytes]:
    """Nodes: per-layer [audio_batch, heads_l, queries, F] -> `alignment_weights` [batch, A, n_tokens, F].

    queries = rows_per_audio * n_tokens (rows sharing an audio are attended as one sequence):
    split them and move the rows next to the audio batch."""
    node = wire.node
    return [
        node("Concat", parts, ["align_grouped"], axis=1),
        node("Cast", ["align_grouped"], ["align_float"], to=_FLOAT),
        node("Shape", ["tokens"], ["align_n_tokens"], start=1, end=2),
        node("Shape", ["align_float"], ["align_frames"], start=3, end=4),
        node("Shape", ["align_float"], ["align_audio"], start=0, end=1),
        node(
            "Concat",
            ["align_audio", "align_a", "align_minus1", "align_n_tokens", "align_frames"],
            ["align_shape5"],
            axis=0,
        ),
        node("Reshape", ["align_float", "align_shape5"], ["align_5d"]),
        node("Transpose", ["align_5d"], ["align_rows"], perm=[0, 2, 1, 3, 4]),
        node("Concat", ["align_minus1", "align_a", "align_n_tokens", "align_frames"], ["align_shape4"], axis=0),
        node("Reshape", ["align_rows", "align_shape4"], [ALIGNMENT_OUTPUT]),
    ]


def decoder_graph(decoder_path: Path) -> bytes:
    """`decoder_path`'s bytes with the `alignment_weights` output added where its metadata names
    alignment heads, else as they are (a file without Earshot's metadata is refused later, by
    the runtime, with its own message): the file's bytes and a graph extension after them
    (onnx_wire.py), so the file is neither parsed nor rewritten here. Weights kept in a side file
    (decoders over protobuf's 2 GiB) stay there, referenced, not loaded."""
    data = decoder_path.read_bytes()
    try:
        facts = wire.metadata(data).get(METADATA_KEY)
        heads = ModelFacts.from_json(facts).alignment_heads if facts is not None else []
    except (ValueError, KeyError, TypeError):  # damaged: onnxruntime or the runtime says so when it opens it
        log.warning("could not read the metadata of %s", decoder_path, exc_info=True)
        heads = []
    return data + alignment_extension(heads) if heads else data


def decoder_session(decoder_path: Path, config: SessionConfig) -> tuple[ort.InferenceSession, str, str | None]:
    """`create_session` of `decoder_graph(decoder_path)`; weights kept in side files are read
    from the decoder's folder."""
    session, provider, reason = create_session(decoder_graph(decoder_path), config, decoder_path.parent)
    _forget_model_bytes(session)
    return session, provider, reason


def _forget_model_bytes(session: ort.InferenceSession) -> None:
    """Drop the copy of the graph's bytes that onnxruntime's Python session keeps (the whole
    decoder, 35 MB for tiny.en int8) to rebuild itself on the CPU should its provider fail at run
    time. Earshot picks the provider when it opens the model and names any fallback then
    (`create_session`); a decode that fails later raises instead of moving to the CPU unannounced."""
    session.disable_fallback()
    if getattr(session, "_model_bytes", None) is not None:
        session._model_bytes = None  # private in onnxruntime; where it is gone, nothing is held

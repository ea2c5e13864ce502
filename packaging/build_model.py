"""The default model, converted at build time for the bundle: `<staging>/models/<name>/<precision>/`.

The graphs are the converter's own at the `auto` precision for the CPU, with one storage change:
fp32 initializers whose values fp16 holds exactly (for tiny.en, whose source weights are fp16: all
float weights of the fp32 graphs; in the int8 graphs the token embedding and what stays unquantized)
are stored as fp16 and widened by a `Cast` that onnxruntime constant-folds into the same fp32
tensor when the session loads. The arithmetic is unchanged (`verify_same_results` checks that
tokens and log-probabilities are identical on real audio); the files shrink by a third (int8) to
a half (fp32). `computed_positions` can leave the encoder's sinusoid table out (nodes compute it,
bit for bit, when the session loads); off by default (`COMPUTED_POSITIONS`).
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from numpy.typing import NDArray
from onnx import TensorProto, helper, numpy_helper

from app.engine.convert.int8_kernels import PORTABLE_ENV
from app.engine.convert.layout import DECODER_FILE, ENCODER_FILE, TOKENIZER_FILE
from app.engine.convert.vocab_table import ENGLISH_TEXT_TOKENS, VocabularyFormat, requantize_vocabulary
from app.engine.models.precisions import resolve_precision
from app.engine.models.store import ModelStore, is_complete_entry, write_complete_marker
from app.engine.runtime.ort_sessions import SessionConfig
from app.engine.runtime.whisper_runtime import WhisperRuntime
from app.engine.transcribe.whisper_engine import WhisperEngine
from app.engine.types import DecodeOptions, Precision

_MIN_ELEMENTS = 1024  # smaller tensors are not worth a Cast node

SHIPPED_VOCABULARY: VocabularyFormat | None = VocabularyFormat(5, 8, 32, coarse_rows=(2000, ENGLISH_TEXT_TOKENS))
"""The bundle's switch for its int8 decoder's shared vocabulary table (token embedding = output
projection): None ships it as the converter writes it (8-bit); a format re-quantizes that one
table (app/engine/convert/vocab_table.py). Shipped: `m5-b32-r2000`, the text tokens 2000..50255
(the rarer BPE merges) at 5-bit codes in the same 8-bit cells and blocks of 32, every other row
int8's: 7.1 MB less xz'd at no WER cost on bench/vocab_formats.py's sets (docs/packaging.md).
The range ends at the English-only vocabulary's <|endoftext|> (the bundled tiny.en)."""


def share_repeated_scales(graph: onnx.GraphProto) -> list[onnx.NodeProto]:
    """The int8 decoder's token embedding (GatherBlockQuantized) and output projection (MatMulNBits)
    read the same quantized table, each with its own copy of the same scales ([vocab, blocks] and
    [vocab, blocks, 1]: 1.2 MB for tiny.en). Drops the embedding's copy from `graph` and returns the
    Reshape node that makes it from the projection's (onnxruntime folds it when the session loads)."""
    tables = {n.input[1]: n.input[2] for n in graph.node if n.op_type == "MatMulNBits" and len(n.input) > 2}
    by_name = {t.name: t for t in graph.initializer}
    reshapes: list[onnx.NodeProto] = []
    for node in graph.node:
        if node.op_type != "GatherBlockQuantized" or node.input[0] not in tables:
            continue
        mine, theirs = by_name.get(node.input[2]), by_name.get(tables[node.input[0]])
        if mine is None or theirs is None:
            continue
        values = numpy_helper.to_array(mine)
        if not np.array_equal(numpy_helper.to_array(theirs).reshape(values.shape), values):
            continue
        shape = numpy_helper.from_array(np.array(values.shape, dtype=np.int64), f"{mine.name}.shape")
        graph.initializer.remove(mine)
        graph.initializer.append(shape)
        reshapes.append(helper.make_node("Reshape", [theirs.name, shape.name], [mine.name], name=f"{mine.name}.shared"))
    return reshapes


POSITIONS = "encoder.positions"
"""The encoder's sinusoidal position table, [frames, state] float32 in the converted graph."""


def inverse_timescales(channels: int) -> NDArray[np.float64]:
    """[channels / 2] float64 angular frequencies (radians per frame), geometric from 1 to 1/10000."""
    timescales: NDArray[np.float64] = np.exp(-np.log(10000) / (channels // 2 - 1)
                                             * np.arange(channels // 2, dtype=np.float64))
    return timescales


def whisper_sinusoids(frames: int, channels: int) -> NDArray[np.float64]:
    """Whisper's encoder positions [frames, channels] float64: sin | cos of position x inverse
    timescale (openai-whisper's `sinusoids`, which computes them in float64 before its checkpoints
    store them as float32 -> fp16)."""
    angles = np.arange(frames, dtype=np.float64)[:, None] * inverse_timescales(channels)[None, :]
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=1)


def computed_positions(graph: onnx.GraphProto) -> list[onnx.NodeProto]:
    """Replace the stored sinusoid table (1500 x 384 for tiny.en: 1.15 MB as fp16, and sine values
    barely compress) by nodes that onnxruntime folds into the same fp32 tensor at session load:
    Range x inverse timescales in float64, Sin | Cos, then rounded float64 -> float32 -> fp16 ->
    float32 as the checkpoint was. Only when that rounding of `whisper_sinusoids` equals the stored
    table bit for bit; returns the nodes (they read initializers only), or [] and `graph` unchanged.

    Bit-exact on other CPUs too: every value stays the same if float64 sin/cos err by up to 1e-11
    (measured on tiny.en's table; glibc's and onnxruntime's agree within 7e-16)."""
    stored = next((t for t in graph.initializer if t.name == POSITIONS), None)
    if stored is None or stored.data_type != TensorProto.FLOAT or len(stored.dims) != 2:
        return []
    frames, channels = (int(d) for d in stored.dims)
    rounded = whisper_sinusoids(frames, channels).astype(np.float32).astype(np.float16).astype(np.float32)
    if not np.array_equal(rounded, numpy_helper.to_array(stored)):
        return []
    graph.initializer.remove(stored)
    name = POSITIONS
    inverse = inverse_timescales(channels)[None, :]  # [1, channels / 2]
    graph.initializer.extend([numpy_helper.from_array(inverse, f"{name}.inverse"),
                              numpy_helper.from_array(np.array(0.0), f"{name}.first"),
                              numpy_helper.from_array(np.array(float(frames)), f"{name}.frames"),
                              numpy_helper.from_array(np.array(1.0), f"{name}.step"),
                              numpy_helper.from_array(np.array([1], np.int64), f"{name}.column")])
    # (op, inputs, output, attributes), names under `name.`: all float64 until the Casts.
    steps: list[tuple[str, list[str], str, dict[str, Any]]] = [  # ONNX attributes may be of any type
        ("Range", ["first", "frames", "step"], "position", {}),
        ("Unsqueeze", ["position", "column"], "position_column", {}),  # [frames, 1]
        ("Mul", ["position_column", "inverse"], "angle", {}),  # [frames, channels / 2]
        ("Sin", ["angle"], "sin", {}), ("Cos", ["angle"], "cos", {}),
        ("Concat", ["sin", "cos"], "table64", {"axis": 1}),
        ("Cast", ["table64"], "table32", {"to": TensorProto.FLOAT}),
        ("Cast", ["table32"], "table16", {"to": TensorProto.FLOAT16})]
    nodes = [helper.make_node(op, [f"{name}.{i}" for i in inputs], [f"{name}.{out}"], name=f"{name}.{out}.make",
                              **attrs) for op, inputs, out, attrs in steps]
    nodes.append(helper.make_node("Cast", [f"{name}.table16"], [name], name=f"{name}.widen", to=TensorProto.FLOAT))
    return nodes


COMPUTED_POSITIONS = False
"""Off: `computed_positions` saves 0.37 MB xz'd per package but adds ~24 ms to every encoder
session load (onnxruntime folds 576k float64 sin/cos; 28 against 4 ms per session, measured at
load 4 on 2 cores), and the .deb is under 80 MB without it (docs/packaging.md)."""


def compact_graph(source: Path, target: Path, positions_computed: bool = COMPUTED_POSITIONS) -> tuple[int, int]:
    """Copy the graph at `source` to `target`, fp32 weights that fp16 holds exactly stored as
    fp16 + Cast, scales stored twice stored once (`share_repeated_scales`), and with
    `positions_computed` Whisper's sinusoid table computed at load instead of stored
    (`computed_positions`). Returns (elements stored as fp16, elements kept in fp32)."""
    model = onnx.load(str(source))
    graph = model.graph
    positions = computed_positions(graph) if positions_computed else []
    reshapes = share_repeated_scales(graph)
    kept: list[onnx.TensorProto] = []
    casts: list[onnx.NodeProto] = []
    halved = full = 0
    for tensor in graph.initializer:
        if tensor.data_type == TensorProto.FLOAT and int(np.prod(tensor.dims)) >= _MIN_ELEMENTS:
            values = numpy_helper.to_array(tensor)
            half = values.astype(np.float16)
            if np.array_equal(half.astype(np.float32), values):
                kept.append(numpy_helper.from_array(half, f"{tensor.name}.fp16"))
                casts.append(helper.make_node("Cast", [f"{tensor.name}.fp16"], [tensor.name],
                                              name=f"{tensor.name}.widen", to=TensorProto.FLOAT))
                halved += values.size
                continue
            full += values.size
        kept.append(tensor)
    del graph.initializer[:]
    graph.initializer.extend(kept)
    nodes = list(graph.node)
    del graph.node[:]
    # The position nodes and Casts read only initializers, the Reshapes Casts' outputs: first keeps
    # topological order.
    graph.node.extend(positions + casts + reshapes + nodes)
    onnx.checker.check_model(model)
    onnx.save(model, str(target))
    return halved, full


def _transcript(folder: Path, audio: np.ndarray) -> list[tuple[list[int], float, float]]:
    engine = WhisperEngine(WhisperRuntime(folder, SessionConfig("cpu", 0)), "check", Precision.FP32)
    segments, _info = engine.transcribe(audio, DecodeOptions(beam_size=1))
    return [(s.tokens, s.avg_logprob, s.no_speech_prob) for s in segments]


def verify_same_results(original: Path, compacted: Path, clip: Path) -> None:
    """Both graphs must give the same tokens and bit-identical log-probabilities on `clip`."""
    from app.audio.file_decoder import decode_audio

    audio = decode_audio(clip)
    before, after = _transcript(original, audio), _transcript(compacted, audio)
    if not before or before != after:
        raise RuntimeError(f"the compacted graphs decode differently: {before} != {after}")


def _with_vocabulary(source: Path, converted: Path, work: Path, fmt: VocabularyFormat) -> Path:
    """A copy of the converted int8 folder whose decoder stores its vocabulary table at `fmt`,
    re-quantized from the source weights' embedding ([vocab, state], fp16 -> float32)."""
    from app.engine.convert.readers import read_weights

    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(converted, work)
    table = read_weights(source).tensors["decoder/embeddings/weight"].astype(np.float32)
    decoder = requantize_vocabulary(onnx.load(str(converted / DECODER_FILE)), table, fmt)
    onnx.save(decoder, str(work / DECODER_FILE))
    print(f"model: vocabulary table re-quantized at {fmt}")
    return work


def stage_model(staging: Path, cache_dir: Path, clip: Path) -> Path:
    """Convert the bundled model (reusing `cache_dir` across builds) and stage its compacted graphs."""
    store = ModelStore(data_dir=cache_dir / "data", cache_dir=cache_dir)
    store.prebuilt_dir = None  # build from the source weights, never from an earlier bundle
    entry = store.resolve(None)
    precision = resolve_precision(Precision.AUTO, "cpu")
    start = time.perf_counter()
    # The bundle runs on CPUs other than the build machine's: int8 weights in the encoding every
    # CPU computes exactly (app/engine/convert/int8_kernels.py).
    os.environ[PORTABLE_ENV] = "1"
    try:
        converted = store.converted(entry, precision)
    finally:
        os.environ.pop(PORTABLE_ENV, None)
    print(f"model: {entry.name} {precision.value} converted in {time.perf_counter() - start:.1f} s ({converted})")
    if SHIPPED_VOCABULARY is not None and precision is Precision.INT8:
        converted = _with_vocabulary(entry.source, converted, staging.parent / "requantized", SHIPPED_VOCABULARY)
    target = staging / "models" / entry.name / precision.value
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    for name in (ENCODER_FILE, DECODER_FILE):
        halved, full = compact_graph(converted / name, target / name)
        print(f"model: {name}: {halved:,} weights stored as fp16 (exact), {full:,} kept in fp32")
    shutil.copy2(converted / TOKENIZER_FILE, target / TOKENIZER_FILE)
    verify_same_results(converted, target, clip)
    write_complete_marker(target)
    if not is_complete_entry(target):
        raise RuntimeError(f"{target} is not a complete model entry")
    size = sum(p.stat().st_size for p in target.iterdir()) / 1e6
    print(f"model: staged {target} ({size:.1f} MB): same tokens and log-probabilities as the converter's graphs")
    return target

"""Silero VAD over many frames at once: the convolutional front batched, the LSTM cell in numpy.

In Silero v5 everything before the LSTM cell (the STFT as a Conv1d over the 64 context samples
plus the 512-sample frame, then four Conv1d + ReLU layers) depends only on that 576-sample input,
so one onnxruntime call scores a whole block of frames. Only the LSTM cell (state: h and c,
128 floats each) is recurrent; numpy steps it frame by frame in ~10 us, and the decoder (ReLU, a
1x1 Conv1d, sigmoid) is batched again afterwards.

The front is rebuilt, at run time, from the weights of the installed `silero_vad.onnx` (the 16 kHz
branch of its top `If` node) as plain matrix products: the reflection pad and the four STFT
windows fold into one [576, 1032] matrix, and each Conv1d over its 4, 2 or 1 time steps becomes a
banded matrix. onnxruntime's Conv runs one thin product per frame; these run one product per
block, with the frames as its rows, several times faster. No second model file ships: the front
is built once per machine and kept in the user's cache (`vad_front_cache`). The probabilities
match the per-frame model to ~1e-6 (float32 sums in another order).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from app.audio.vad_front_cache import Front, load_front

FRAME = 512
CONTEXT = 64
HIDDEN = 128
_BINS = 129  # STFT bins (256-sample windows)
_WINDOWS = 4  # 256-sample windows, hop 128, over the 576 samples reflect-padded to 640
_BLOCK = 512  # frames per onnxruntime call: larger blocks gain nothing and cost memory
_PREFIX = "__Inline_0__"  # how the exporter names the inlined branch's values


def _sixteen_khz_branch(model: Any) -> Any:
    """The `then_branch` graph of the top `If` (sr == 16000) of Silero v5's graph."""
    top_if = next(node for node in model.graph.node if node.op_type == "If")
    return next(attr.g for attr in top_if.attribute if attr.name == "then_branch")


def _constants(branch: Any) -> dict[str, NDArray[np.float32]]:
    """The branch's weights by their PyTorch names ("decoder.rnn.weight_ih", ...)."""
    from onnx import numpy_helper

    consts = [node for node in branch.node if node.op_type == "Constant"]
    return {n.output[0].split(_PREFIX)[-1]: numpy_helper.to_array(n.attribute[0].t) for n in consts}


def _stft_matrix(basis: NDArray[np.float32]) -> NDArray[np.float32]:
    """[576, 1032] float32: model input -> the real parts of the 4 windows' 129 bins, (window,
    bin) order, then the imaginary parts. `basis` [258, 1, 256]: Silero's STFT Conv1d weight.
    The model pads its input on the right by reflection (sample 576 + j is sample 574 - j)."""
    n_in = CONTEXT + FRAME
    pad = np.zeros((n_in, n_in + CONTEXT))
    pad[np.arange(n_in), np.arange(n_in)] = 1.0
    pad[n_in - 2 - np.arange(CONTEXT), n_in + np.arange(CONTEXT)] = 1.0
    windows = [pad[:, 128 * k : 128 * k + 256] @ basis[:, 0, :].T.astype(np.float64) for k in range(_WINDOWS)]
    real = [w[:, :_BINS] for w in windows]
    imag = [w[:, _BINS:] for w in windows]
    return np.concatenate(real + imag, axis=1).astype(np.float32)


def _conv_matrix(weight: NDArray[np.float32], length: int, stride: int) -> NDArray[np.float32]:
    """A Conv1d (kernel 3, padding 1, `weight` [out, in, 3]) over `length` steps as a matrix
    [length * in, steps * out] float32, inputs and outputs flattened in (step, channel) order."""
    out_c, in_c, kernel = weight.shape
    centres = range(0, length, stride)
    dense = np.zeros((length, in_c, len(centres), out_c), dtype=np.float32)
    for j, centre in enumerate(centres):
        for tap in range(kernel):
            if 0 <= centre + tap - 1 < length:
                dense[centre + tap - 1, :, j, :] = weight[:, :, tap].T
    return dense.reshape(length * in_c, len(centres) * out_c)


def _dense(x: str, name: str, relu: bool) -> list[Any]:
    """Nodes x @ w_{name} + b_{name} (then ReLU when `relu`), output named `name`."""
    from onnx import helper

    out = f"{name}_pre" if relu else name
    nodes = [helper.make_node("MatMul", [x, f"w_{name}"], [f"{name}_mm"]),
             helper.make_node("Add", [f"{name}_mm", f"b_{name}"], [out])]  # fmt: skip
    return [*nodes, helper.make_node("Relu", [out], [name])] if relu else nodes


def _magnitude_nodes() -> list[Any]:
    """Nodes `input` [n, 576] -> `mag` [n, 4 * 129]: |STFT| of the 4 windows, (window, bin) order."""
    from onnx import helper

    return [helper.make_node("MatMul", ["input", "stft"], ["spec"]), helper.make_node("Mul", ["spec", "spec"], ["sq"]),
            helper.make_node("Slice", ["sq", "zero", "half", "axis"], ["re2"]),
            helper.make_node("Slice", ["sq", "half", "full", "axis"], ["im2"]),
            helper.make_node("Add", ["re2", "im2"], ["power"]),
            helper.make_node("Sqrt", ["power"], ["mag"])]  # fmt: skip


def _front_tensors(weights: dict[str, NDArray[np.float32]], order: NDArray[np.intp]) -> dict[str, NDArray[Any]]:
    """The front's initializers: the STFT matrix, the 4 conv layers as matrices (w_e0..w_e3,
    b_e0..b_e3), the LSTM's input weights with its two biases (w_gates, b_gates) in gate `order`."""
    half = _WINDOWS * _BINS
    tensors: dict[str, NDArray[Any]] = {"stft": _stft_matrix(weights["stft.forward_basis_buffer"]),
                                        "zero": np.array([0]), "half": np.array([half]),
                                        "full": np.array([2 * half]), "axis": np.array([1])}  # fmt: skip
    # (input steps, stride) of each encoder layer: 4 STFT windows, halved twice
    for i, (length, stride) in enumerate([(_WINDOWS, 1), (_WINDOWS, 2), (2, 2), (1, 1)]):
        tensors[f"w_e{i}"] = _conv_matrix(weights[f"encoder.{i}.reparam_conv.weight"], length, stride)
        tensors[f"b_e{i}"] = np.tile(weights[f"encoder.{i}.reparam_conv.bias"], len(range(0, length, stride)))
    tensors["w_gates"] = weights["decoder.rnn.weight_ih"][order].T
    tensors["b_gates"] = (weights["decoder.rnn.bias_ih"] + weights["decoder.rnn.bias_hh"])[order]
    return tensors


def _front_model(weights: dict[str, NDArray[np.float32]], order: NDArray[np.intp]) -> bytes:
    """A model [n, 576] float32 `input` -> [n, 512] float32 `gates`: for each frame, the
    LSTM's input gates (x W_ih + b_ih + b_hh, columns in `order`) of the encoder's output x."""
    import onnx
    from onnx import helper, numpy_helper

    nodes = _magnitude_nodes() + _dense("mag", "e0", True)
    for i in range(1, 4):
        nodes += _dense(f"e{i - 1}", f"e{i}", True)
    nodes += _dense("e3", "gates", False)
    tensors = _front_tensors(weights, order)
    graph = helper.make_graph(
        nodes,
        "silero_front",
        [helper.make_tensor_value_info("input", onnx.TensorProto.FLOAT, ["n", CONTEXT + FRAME])],
        [helper.make_tensor_value_info("gates", onnx.TensorProto.FLOAT, ["n", 4 * HIDDEN])],
        [numpy_helper.from_array(np.ascontiguousarray(v), k) for k, v in tensors.items()],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model)
    return bytes(model.SerializeToString())


def _build_front(source: bytes) -> Front:
    """The front of the Silero model whose file holds `source` (its bytes), built from its weights."""
    import onnx

    weights = _constants(_sixteen_khz_branch(onnx.load_model_from_string(source)))
    # PyTorch's gate order is i, f, g, o; i, f, o first lets one sigmoid cover three gates
    order = np.r_[0 : 2 * HIDDEN, 3 * HIDDEN : 4 * HIDDEN, 2 * HIDDEN : 3 * HIDDEN]
    return Front(
        model=_front_model(weights, order),
        w_hh=np.ascontiguousarray(weights["decoder.rnn.weight_hh"][order].T),  # [128, 512]
        out_w=weights["decoder.decoder.2.weight"][0, :, 0],  # [128]
        out_b=weights["decoder.decoder.2.bias"],  # [1]
    )


class SileroBatch:
    """The batched scorer of one `silero_vad.onnx`; stateless (the caller owns state and context).

    Its front comes from the user's cache (`vad_front_cache`) when a process on this machine has
    built it before: then building the scorer never imports `onnx`."""

    def __init__(self, model_path: Path, cache_dir: Path | None = None) -> None:
        self._session, front = load_front(model_path, _build_front, cache_dir)
        self._w_hh, self._out_w, self._out_b = front.w_hh, front.out_w, front.out_b

    def gates(self, inputs: NDArray[np.float32]) -> NDArray[np.float32]:
        """The LSTM's input gates [n, 512] float32 (i, f, o, g) of model inputs [n, 576] float32
        (64 context samples, then the 512-sample frame)."""
        parts = [self._session.run(None, {"input": inputs[i : i + _BLOCK]})[0] for i in range(0, len(inputs), _BLOCK)]
        return np.concatenate(parts) if parts else np.zeros((0, 4 * HIDDEN), dtype=np.float32)

    def run(
        self, frames: NDArray[np.float32], context: NDArray[np.float32], state: NDArray[np.float32]
    ) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """Score frames [n >= 1, 512] float32 16 kHz in order, as n calls of the model would.

        `context` [64] float32: the tail of the frame scored before `frames[0]`; `state`
        [2, 1, 128] float32: the LSTM's h and c before it. Returns (probabilities [n] float32,
        the state after the last frame [2, 1, 128] float32).
        """
        tails = np.concatenate([context[None, :], frames[:-1, -CONTEXT:]])
        inputs = np.concatenate([tails, frames], axis=1).astype(np.float32, copy=False)
        hidden, state = self._lstm(self.gates(inputs), state)
        logits = np.maximum(hidden, 0.0) @ self._out_w + self._out_b
        probs: NDArray[np.float32] = (1.0 / (1.0 + np.exp(-logits))).astype(np.float32)
        return probs, state

    def _lstm(
        self, gates_in: NDArray[np.float32], state: NDArray[np.float32]
    ) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """Step the LSTM cell over input gates [n, 512] float32 (i, f, o, g) from `state`
        [2, 1, 128]: (h after each step [n, 128] float32, the last state [2, 1, 128] float32).
        Each step runs in place on preallocated buffers: at ~10 us a step, allocations count."""
        hidden = np.empty((len(gates_in), HIDDEN), dtype=np.float32)
        h, c = state[0, 0].astype(np.float32), state[1, 0].astype(np.float32)
        gates, tmp = np.empty(4 * HIDDEN, dtype=np.float32), np.empty(HIDDEN, dtype=np.float32)
        sig, cand = gates[: 3 * HIDDEN], gates[3 * HIDDEN :]
        in_gate, forget, out_gate = sig[:HIDDEN], sig[HIDDEN : 2 * HIDDEN], sig[2 * HIDDEN :]
        for t in range(len(gates_in)):
            np.dot(h, self._w_hh, out=gates)
            gates += gates_in[t]
            np.reciprocal(np.exp(np.negative(sig, out=sig), out=sig) + 1.0, out=sig)  # sigmoid
            np.tanh(cand, out=cand)
            c *= forget
            c += np.multiply(in_gate, cand, out=tmp)
            h = np.multiply(out_gate, np.tanh(c, out=tmp), out=hidden[t])
        return hidden, np.stack([h, c])[:, None, :].astype(np.float32)


@lru_cache(maxsize=2)
def silero_batch(model_path: Path) -> SileroBatch:
    """The batched scorer of `model_path`, built once per process (a ~3 MB session)."""
    return SileroBatch(model_path)

"""Top operators of the encoder and decoder graphs, from onnxruntime's own profiler.

    python bench/profile_ops.py [--precision int8] [--steps 50]

Prints, per graph, the share of kernel time of each operator type for one 30 s window and for
`--steps` decoder steps (batch 1, greedy).
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnxruntime as ort

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine.models.store import ModelStore
from app.engine.types import Precision


def _session(path: Path, threads: int, folder: str) -> ort.InferenceSession:
    options = ort.SessionOptions()
    options.enable_profiling = True
    options.profile_file_prefix = str(Path(folder) / path.stem)
    options.intra_op_num_threads = threads
    options.add_session_config_entry("session.intra_op.allow_spinning", "1")  # as app/engine/runtime/ort_sessions.py
    options.add_session_config_entry("session.force_spinning_stop", "1")
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def _top(profile: str, runs: int) -> list[tuple[str, float, float]]:
    totals: collections.Counter[str] = collections.Counter()
    for event in json.loads(Path(profile).read_text()):
        if event.get("cat") == "Node" and event["name"].endswith("_kernel_time"):
            totals[event["args"]["op_name"]] += event["dur"]
    whole = sum(totals.values()) or 1
    return [(op, us / runs / 1000, 100 * us / whole) for op, us in totals.most_common(6)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--precision", default="fp32")
    parser.add_argument("--steps", type=int, default=50)
    args = parser.parse_args()
    store = ModelStore()
    folder = store.converted(store.resolve(None), Precision(args.precision))
    with tempfile.TemporaryDirectory() as tmp:
        enc = _session(folder / "encoder.onnx", 2, tmp)
        mel = np.zeros((1, 80, 3000), np.float32)
        cross = dict(zip([o.name for o in enc.get_outputs()], enc.run(None, {"mel": mel}), strict=True))
        for _ in range(2):
            enc.run(None, {"mel": mel})
        print(f"encoder ({args.precision}, per 30 s window):")
        for op, ms, share in _top(enc.end_profiling(), 3):
            print(f"  {op:28} {ms:8.1f} ms  {share:5.1f} %")
        dec = _session(folder / "decoder.onnx", 2, tmp)  # as app/engine/runtime/whisper_runtime.py: all cores
        heads = cross["cross_k_0"].shape[1]
        past = {f"past_{k}_{i}": np.zeros((1, heads, 0, 64), cross["cross_k_0"].dtype)
                for i in range(len(cross) // 2) for k in "kv"}
        names = [o.name for o in dec.get_outputs()]
        for _ in range(args.steps):
            out = dict(zip(names, dec.run(None, {**cross, **past, "tokens": np.array([[440]], np.int64),
                                                "cache_indices": np.zeros(1, np.int64)}), strict=True))
            past = {k.replace("present_", "past_"): v for k, v in out.items() if k.startswith("present_")}
        print(f"decoder ({args.precision}, per step, {args.steps} steps):")
        for op, ms, share in _top(dec.end_profiling(), args.steps):
            print(f"  {op:28} {ms:8.2f} ms  {share:5.1f} %")


if __name__ == "__main__":
    main()

"""The file speech map's cost: Silero called once per frame against the batched scorer.

    python bench/speech_map_cost.py                 # speech map only, 3 rounds
    python bench/speech_map_cost.py --transcribe    # plus the whole 158 s file, tiny.en int8, beam 5
    python bench/speech_map_cost.py --processes     # plus fresh processes: the scorer's build, the CLI

Per recording (../shared/data): frames the detector scores, the largest difference between the
per-frame and the batched probabilities over every such frame, and the CPU seconds
(time.process_time) of `SpeechMap.feed` + `finish` on the whole file with each path, the best
of alternating rounds (the machine is shared, so CPU time, not wall time). `--transcribe`: the
whole transcription of the 158 s file with each path, the same text asserted. `--processes`: CPU
seconds (getrusage of the children) of fresh processes, in a cache of their own (the user's converted
models linked in): building the batched scorer with a cold and a warm front cache, and the whole
`python -m app transcribe` of the 158 s file with per-frame Silero, batched with a cold front cache
(it builds the front, importing onnx) and batched with a warm one, alternating rounds.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.audio.file_decoder import decode_audio  # noqa: E402
from app.audio.vad import SileroVadModel  # noqa: E402
from app.engine.transcribe.speech_map import SpeechDetector, SpeechMap  # noqa: E402

DATA = REPO.parent / "shared" / "data"
LONG = DATA / "speech2" / "en_librivox_sonnets_1to3_long.wav"
FILES = [
    LONG,
    DATA / "speech2" / "en_lucier_sitting_in_a_room.wav",
    DATA / "speech" / "en_jfk_inaugural.wav",
    DATA / "speech" / "en_mfa_acoustic_corpus.wav",
    DATA / "speech" / "ns_music_vibe_ace.wav",
    DATA / "speech" / "ns_noise_pv_empty.wav",
    DATA / "robustness" / "en_mfa_whisper_mfa.wav",
    DATA / "robustness" / "en_mfa_cold_corpus3.wav",
]


class PerFrame:
    """Silero without its batched method: `SpeechMap` falls back to one call per frame."""

    def __init__(self, model: SileroVadModel | None = None) -> None:
        self.model = model or SileroVadModel()

    def __call__(self, frame: NDArray[np.float32]) -> float:
        return self.model(frame)

    def fork(self) -> PerFrame:
        return PerFrame(self.model.fork())


def speech_map(audio: NDArray[np.float32], detector: SpeechDetector) -> tuple[SpeechMap, float]:
    """(the map of `audio` [n] float32 16 kHz, its CPU seconds)."""
    start = time.process_time()
    smap = SpeechMap(detector)
    smap.feed(audio)
    smap.finish()
    return smap, time.process_time() - start


def max_difference(audio: NDArray[np.float32]) -> tuple[int, float]:
    """(frames the map's detector scores, max |per-frame - batched| probability over them)."""
    n = len(audio) // 512
    frames = audio[: n * 512].reshape(n, 512)
    loud = np.sqrt(np.mean(np.square(frames, dtype=np.float64), axis=1)) >= 1e-4
    called = np.ascontiguousarray(frames[loud])
    one = SileroVadModel()
    per_frame = np.array([one(frame) for frame in called], dtype=np.float32)
    batched = SileroVadModel().probabilities(called)
    return len(called), float(np.abs(per_frame - batched).max(initial=0.0))


def map_costs(rounds: int) -> None:
    print(f"{'file':40s} {'frames':>7s} {'max diff':>9s} {'per-frame s':>11s} {'batched s':>9s} {'ratio':>6s}")
    for path in FILES:
        audio = decode_audio(path)
        n_called, diff = max_difference(audio)
        slow, fast = [], []
        for _ in range(rounds):
            slow_map, slow_s = speech_map(audio, PerFrame())
            fast_map, fast_s = speech_map(audio, SileroVadModel())
            slow.append(slow_s)
            fast.append(fast_s)
        same = slow_map.probabilities(0, slow_map.classified) == fast_map.probabilities(0, fast_map.classified)
        ratio = min(slow) / min(fast)
        print(f"{path.name:40s} {n_called:7d} {diff:9.1e} {min(slow):11.3f} {min(fast):9.3f} {ratio:6.2f}"
              f"  map bytes differ: {int((~same).sum())}")


def transcription(rounds: int) -> None:
    from app.engine.models.loader import load_engine
    from app.engine.types import DecodeOptions, Precision

    engine = load_engine(precision=Precision.INT8)
    audio = decode_audio(LONG)
    times: dict[str, list[float]] = {"per-frame": [], "batched": []}
    texts: dict[str, str] = {}
    for _ in range(rounds):
        detectors: list[tuple[str, SpeechDetector]] = [("per-frame", PerFrame()), ("batched", SileroVadModel())]
        for name, detector in detectors:
            start = time.process_time()
            segments, _ = engine.transcribe(audio, DecodeOptions(beam_size=5), speech=detector)
            texts[name] = " ".join(s.text.strip() for s in segments)
            times[name].append(time.process_time() - start)
    assert texts["per-frame"] == texts["batched"], "the batched speech map changed the transcript"
    slow, fast = min(times["per-frame"]), min(times["batched"])
    print(f"\n{LONG.name}: whole transcription, CPU s per-frame {slow:.2f}, batched {fast:.2f}, "
          f"ratio {slow / fast:.3f} (saved {slow - fast:.2f} s); same text ({len(texts['batched'])} chars)")


# Builds the batched scorer; prints the CPU seconds of the build and whether it imported onnx.
SCORER = """
import sys, time
from app.audio.vad import silero_model_path
from app.audio.vad_batch import SileroBatch
start = time.process_time()
SileroBatch(silero_model_path())
print(f"{time.process_time() - start:.3f}", "onnx" in sys.modules)
"""
# `python -m app transcribe ARGS...`, with Silero's batched method taken away for "per-frame".
CLI = """
import runpy, sys
from app.audio.vad import SileroVadModel
if sys.argv[1] == "per-frame":
    del SileroVadModel.probabilities  # the speech map falls back to one call per frame
sys.argv = ["earshot", *sys.argv[2:]]
runpy.run_module("app", run_name="__main__", alter_sys=True)
"""


def child(args: list[str], cache: Path, cold: bool) -> tuple[float, str]:
    """(CPU seconds, stdout) of a fresh process; `cold`: its front cache emptied first."""
    if cold:
        shutil.rmtree(cache / "vad", ignore_errors=True)
    env = {**os.environ, "EARSHOT_CACHE_DIR": str(cache), "PYTHONPATH": str(REPO)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([sys.executable, *args], env=env, cwd=REPO, capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, out.stdout


def process_costs(rounds: int, threads: int | None) -> None:
    from app import user_dirs

    with tempfile.TemporaryDirectory(prefix="earshot-bench-") as folder:
        cache = Path(folder)
        for item in user_dirs.cache_dir().glob("*"):  # converted models: no conversion in the rounds
            if item.name != "vad":
                (cache / item.name).symlink_to(item)
        times: dict[str, list[float]] = {}
        texts: dict[str, str] = {}
        cli = ["-c", CLI, "", "transcribe", str(LONG), "--precision", "int8", "--beam-size", "5"]
        cli += ["--threads", str(threads)] if threads else []
        child(cli, cache, cold=False)  # warm-up: the page cache, a conversion if one is missing
        for _ in range(rounds):
            for name, cold in (("cold", True), ("warm", False)):
                cpu, out = child(["-c", SCORER], cache, cold)
                build_s, imported = out.split()
                times.setdefault(f"scorer process, front cache {name}", []).append(cpu)
                times.setdefault(f"  SileroBatch() in it (onnx imported: {imported})", []).append(float(build_s))
            for name, cold in (("per-frame", False), ("batched cold", True), ("batched warm", False)):
                cli[2] = name
                cpu, texts[name] = child(cli, cache, cold)
                times.setdefault(f"transcribe {name}", []).append(cpu)
    assert len(set(texts.values())) == 1, "the batched speech map changed the transcript"
    print(f"\nfresh processes, --threads {threads or 'default'}, CPU s, best of {rounds} alternating rounds:")
    for name, values in times.items():
        print(f"  {name:48s} {min(values):7.3f}  ({', '.join(f'{v:.3f}' for v in values)})")
    saved = min(times["transcribe per-frame"]) - min(times["transcribe batched warm"])
    print(f"  {LONG.name}: batched warm saves {saved:.2f} s CPU per process against per-frame")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--transcribe", action="store_true", help="also time the whole 158 s transcription")
    parser.add_argument("--processes", action="store_true", help="also time fresh processes: build and CLI")
    parser.add_argument("--only-processes", action="store_true", help="time fresh processes only")
    parser.add_argument("--cli-threads", type=int, help="the processes' --threads (1: no idle threads spinning)")
    args = parser.parse_args()
    cpu = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
    print(next((line.split(":", 1)[1].strip() for line in cpu.splitlines() if line.startswith("Model name")), "?"))
    if not args.only_processes:
        map_costs(args.rounds)
    if args.transcribe and not args.only_processes:
        transcription(args.rounds)
    if args.processes or args.only_processes:
        process_costs(args.rounds, args.cli_threads)


if __name__ == "__main__":
    main()

"""The file speech map's cost: Silero called once per frame against the batched scorer.

    python bench/speech_map_cost.py                 # speech map only, 3 rounds
    python bench/speech_map_cost.py --transcribe    # plus the whole 158 s file, tiny.en int8, beam 5

Per recording (../shared/data): frames the detector scores, the largest difference between the
per-frame and the batched probabilities over every such frame, and the CPU seconds
(time.process_time) of `SpeechMap.feed` + `finish` on the whole file with each path, the best
of alternating rounds (the machine is shared, so CPU time, not wall time). `--transcribe`: the
whole transcription of the 158 s file with each path, the same text asserted.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
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

    def __init__(self) -> None:
        self.model = SileroVadModel()

    def __call__(self, frame: NDArray[np.float32]) -> float:
        return self.model(frame)


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--transcribe", action="store_true", help="also time the whole 158 s transcription")
    args = parser.parse_args()
    cpu = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
    print(next((line.split(":", 1)[1].strip() for line in cpu.splitlines() if line.startswith("Model name")), "?"))
    map_costs(args.rounds)
    if args.transcribe:
        transcription(args.rounds)


if __name__ == "__main__":
    main()

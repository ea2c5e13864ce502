"""Memory over many decodes: does the engine's RSS keep growing?

    python bench/engine_memory.py [--decodes 300] [--precision int8]

Decodes random 1-24 s windows of the English shared clips (the window lengths live dictation
uses) with the bundled tiny.en and prints RSS every 50 decodes, relative to after one full-window
warm-up decode.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare import english_clips
from earshot_bench_io import read_wav

from app.dictation.policy import streaming_decode_options
from app.engine.models.loader import load_engine
from app.engine.types import Precision

RATE = 16000


def rss_mb() -> float:
    """This process' resident memory in MB (Linux /proc)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def session_audio(clips: list[tuple[str, str]], pause_s: float, minutes: float) -> tuple[np.ndarray, list[str]]:
    """The clips (path, reference) joined by `pause_s` of silence after 1 s of it, looped until
    at least `minutes` long: (audio float32 16 kHz, the references in playing order)."""
    pause = np.zeros(int(pause_s * RATE), dtype=np.float32)
    parts, refs = [np.zeros(RATE, dtype=np.float32)], []
    while True:
        for path, ref in clips:
            parts += [read_wav(Path(path)), pause]
            refs.append(ref)
        if sum(p.shape[0] for p in parts) >= minutes * 60 * RATE:
            return np.concatenate(parts), refs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--decodes", type=int, default=300)
    parser.add_argument("--precision", default="int8")
    args = parser.parse_args()
    engine = load_engine(None, Precision(args.precision))
    audio, _ = session_audio(english_clips(), 1.5, 3)
    options = streaming_decode_options("en")
    engine.decode_window(audio[: 24 * RATE], options)
    rng = np.random.default_rng(0)
    start_rss, started = rss_mb(), time.monotonic()
    for i in range(1, args.decodes + 1):
        begin = int(rng.integers(0, len(audio) - 25 * RATE))
        engine.decode_window(audio[begin : begin + int(rng.integers(1, 24)) * RATE], options)
        if i % 50 == 0:
            print(f"{i:5d} decodes  RSS {rss_mb():6.0f} MB  (+{rss_mb() - start_rss:.0f})  "
                  f"{time.monotonic() - started:.0f} s", flush=True)


if __name__ == "__main__":
    main()

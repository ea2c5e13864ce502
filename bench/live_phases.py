"""Where a live session's decoding time goes: the encoder, the decoder's steps, the alignment pass.

    python bench/live_phases.py                        # speech and speech2, continuous, the default
    python bench/live_phases.py --trim-after-s 20      # windows trimmed later (more tokens re-decoded)

Each session (the English clips of ../shared/data/speech and speech2 joined with 0.35 s gaps, as
bench/dictation.py's continuous sessions) is replayed fast through the live worker (tiny.en, the
precision `auto` picks) with `WhisperRuntime.encode`, `decode` and `decode_with_alignment` timed
(wall seconds, every thread) and counted (with tiny.en each decoder call feeds one token). Every decode of a window
decodes its committed words again, token by token, before the new ones: the decoder's share is the
most that decoding them at once could save.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import dictation_sets as sets  # noqa: E402  (bench/ is on sys.path)
from dictation_metrics import run_live  # noqa: E402

from app.audio.vad import VadOptions  # noqa: E402
from app.dictation.live_worker import DictationOptions  # noqa: E402
from app.dictation.policy import PolicyOptions, streaming_decode_options  # noqa: E402
from app.engine.models.loader import load_engine  # noqa: E402
from app.engine.runtime import whisper_runtime  # noqa: E402

SECONDS: defaultdict[str, float] = defaultdict(float)
CALLS: Counter[str] = Counter()
PHASES = ("encode", "decode", "decode_with_alignment")


def _timed(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    def timed(self: object, *args: Any, **kwargs: Any) -> Any:
        t0 = time.perf_counter()
        out = method(self, *args, **kwargs)
        SECONDS[name] += time.perf_counter() - t0
        CALLS[name] += 1
        return out

    return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trim-after-s", type=float, default=PolicyOptions.trim_after_s)
    args = parser.parse_args()
    for name in PHASES:
        setattr(whisper_runtime.WhisperRuntime, name, _timed(name, getattr(whisper_runtime.WhisperRuntime, name)))
    engine = load_engine()
    policy = PolicyOptions(decode=streaming_decode_options("en"), trim_after_s=args.trim_after_s)
    print("| session | wall s | encoder s (windows) | decoder steps s (calls) | alignment s (passes) |")
    print("|---|---|---|---|---|")
    for label, utterances in (("speech", sets.english_clean()), ("speech2", sets.english_speech2())):
        audio, _ = sets.join(utterances, 0.35)
        SECONDS.clear()
        CALLS.clear()
        t0 = time.perf_counter()
        run_live(engine, audio, DictationOptions(policy=policy, vad=VadOptions(), realtime=False))
        wall = time.perf_counter() - t0
        print(
            f"| {label} continuous | {wall:.1f} | {SECONDS['encode']:.1f} ({CALLS['encode']}) | "
            f"{SECONDS['decode']:.1f} ({CALLS['decode']}) | "
            f"{SECONDS['decode_with_alignment']:.1f} ({CALLS['decode_with_alignment']}) |"
        )


if __name__ == "__main__":
    main()

"""Live dictation benchmark: the English shared clips replayed in real time through the live path.

    python bench/dictation.py [--models tiny.en base] [--precision auto] [--pause 1.5]
                              [--minutes 0] [--fast]

The clips (../shared/data/speech, language en) are joined with `--pause` seconds of silence and
replayed at 1x into the same ring buffer, worker, VAD and policy as the microphone. Printed per
model: commit latency p50/p95 (end of an utterance's speech -> all its words committed), first
tentative latency p50 (speech start -> first text), compute ratio (decode time / audio time),
overflows, peak and growth of RSS, and WER of the committed text next to offline (whole-clip,
same greedy decoding) WER. `--minutes 30` loops the clips to that length (soak test).
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from compare import english_clips, model_folder  # noqa: E402  (bench/ is on sys.path)
from earshot_bench_io import read_wav  # noqa: E402

from app.audio.replay import ReplayOptions, ReplaySource  # noqa: E402
from app.dictation.events import EventType, QueueSink, SessionSummary  # noqa: E402
from app.dictation.policy import PolicyOptions, streaming_decode_options  # noqa: E402
from app.dictation.worker import DictationOptions, DictationWorker  # noqa: E402
from app.engine.loader import load_engine  # noqa: E402
from app.engine.types import Precision  # noqa: E402
from app.engine.wer import word_error_rate  # noqa: E402

RATE = 16000


def rss_mb(field: str = "VmRSS") -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


def session_audio(clips: list[tuple[str, str]], pause_s: float, minutes: float) -> tuple[np.ndarray, list[str]]:
    """Clips joined by `pause_s` of silence (1 s lead-in), looped to `minutes` if > 0."""
    pause = np.zeros(int(pause_s * RATE), dtype=np.float32)
    parts, refs = [np.zeros(RATE, dtype=np.float32)], []
    while True:
        for path, ref in clips:
            parts += [read_wav(Path(path)), pause]
            refs.append(ref)
        if sum(p.shape[0] for p in parts) >= minutes * 60 * RATE:
            return np.concatenate(parts), refs


def offline_wer(engine, clips: list[tuple[str, str]]) -> float:  # type: ignore[no-untyped-def]
    texts = []
    for path, _ in clips:
        segments, _ = engine.transcribe(read_wav(Path(path)), streaming_decode_options("en"))
        texts.append("".join(s.text for s in segments))
    return word_error_rate([r for _, r in clips], texts)


def run_model(name: str, precision: Precision, args: argparse.Namespace) -> dict[str, object]:
    engine = load_engine(model_folder(name), precision)
    clips = english_clips()
    audio, refs = session_audio(clips, args.pause, args.minutes)
    # Warm-up, not measured: onnxruntime's arenas reach their working size over the first few
    # windows of different lengths (bench/engine_memory.py: +22 MB within 50 decodes, then flat);
    # three windows up to the policy's longest (24 s) take them there, so rss_growth_pct shows
    # growth over time rather than the first fill.
    for seconds in (24, 15, 19):
        engine.decode_window(audio[: seconds * RATE], streaming_decode_options("en"))
    sink = QueueSink()
    source = ReplaySource(audio, RATE, ReplayOptions(realtime=not args.fast))
    drain = threading.Thread(target=_drain, args=(sink,), daemon=True)  # as the app's consumer does
    drain.start()
    policy = PolicyOptions(decode=streaming_decode_options("en"),  # English clips: no language detection
                           hold_unfinished_s=args.hold_s)
    worker = DictationWorker(source, engine, sink, DictationOptions(policy=policy, realtime=not args.fast))
    rss_start = rss_mb()  # session audio, source and worker (VAD, rings) exist: growth is what running adds
    samples: list[float] = []
    sampler = threading.Thread(target=_sample_rss, args=(samples, drain), daemon=True)
    sampler.start()
    started = time.monotonic()
    worker.start()
    worker.join()
    wall = time.monotonic() - started
    drain.join()
    summary = worker.summary
    assert isinstance(summary, SessionSummary)
    return {
        "model": f"{name} ({engine.precision.value})",
        "audio_s": round(summary.audio_s, 1),
        "wall_s": round(wall, 1),
        "commit_p50_ms": _ms(summary.commit_latency_ms_p50),
        "commit_p95_ms": _ms(summary.commit_latency_ms_p95),
        "first_tentative_p50_ms": _ms(summary.first_tentative_ms_p50),
        "compute_ratio": round(summary.compute_ratio, 3),
        "overflows": summary.overflows,
        "decodes": summary.decodes,
        "utterances": summary.utterances,
        "rss_peak_mb": round(rss_mb("VmHWM")),
        "rss_growth_pct": round(100 * (rss_mb() - rss_start) / rss_start, 1),
        # still growing, or settled? growth over the second half of the run alone
        "rss_growth_2nd_half_pct": round(100 * (rss_mb() - samples[len(samples) // 2]) / rss_start, 1)
        if samples else "-",
        "stream_wer": round(word_error_rate([" ".join(refs)], [summary.transcript]), 2),
        "offline_wer": round(offline_wer(engine, clips), 2),
    }


def _sample_rss(samples: list[float], running: threading.Thread) -> None:
    """RSS once a second while the session runs."""
    while running.is_alive():
        samples.append(rss_mb())
        time.sleep(1.0)


def _drain(sink: QueueSink) -> None:
    """Consume events until the summary, as the GUI or `earshot dictate` would."""
    while sink.queue.get().type is not EventType.SUMMARY:
        pass


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", nargs="+", default=["tiny.en", "base"])
    parser.add_argument("--precision", default="auto", choices=[p.value for p in Precision])
    parser.add_argument("--pause", type=float, default=1.5, help="seconds of silence between clips")
    parser.add_argument("--minutes", type=float, default=0.0, help="loop the clips to this length")
    parser.add_argument("--hold-s", type=float, default=PolicyOptions.hold_unfinished_s,
                        help="PolicyOptions.hold_unfinished_s (0 = commit at every pause)")
    parser.add_argument("--fast", action="store_true", help="replay as fast as possible (no latency figures)")
    args = parser.parse_args()
    rows = [run_model(m, Precision(args.precision), args) for m in args.models]
    with open("/proc/loadavg") as handle:
        load = handle.read().split()[0]
    print(f"\nlive dictation, {'fast' if args.fast else 'real-time'} replay, load average {load}\n")
    keys = list(rows[0])
    print("| " + " | ".join(keys) + " |")
    print("|" + "---|" * len(keys))
    for row in rows:
        print("| " + " | ".join(str(row[k]) for k in keys) + " |")


if __name__ == "__main__":
    main()

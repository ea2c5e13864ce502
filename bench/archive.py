"""Whole-archive throughput: audio hours per wall hour of `earshot transcribe DIR --recursive`
with --jobs 1, --jobs 2 and --ray local, against faster-whisper's BatchedInferencePipeline on the
same files and the same CTranslate2 weights (the bundled tiny.en, or --model base).

    python bench/archive.py                                # tiny.en, 4 copies of each committed clip + ...
    python bench/archive.py --copies 8 --rounds 2 --runs jobs1 jobs2 ray fw
    python bench/archive.py --model base --runs jobs1 jobs2

The folder: `--copies` copies of each committed espeak clip in nested folders, the English clips
of ../shared/data/speech (when present) and one ~1 min file joining every committed clip twice.
Every run is a fresh process on a fresh output folder, timed from start to exit (model load and,
for Ray, the cluster's start included: what a user waits for). All use greedy decoding
(beam 1) at int8. WER is over every file (references: clips.json and the shared manifest).
Runs alternate over rounds, so machine noise hits all alike; the table gives the best round.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "tests" / "archive"))
sys.path.insert(0, str(REPO / "bench"))

from archive_testing import LONG_STEM, make_archive  # noqa: E402
from earshot_testing import SHARED_SPEECH, espeak_clips, shared_english  # noqa: E402

from app.archive.file_job import FileOutcome, FileResult  # noqa: E402

RUNS = {
    "jobs1": ["--jobs", "1"],
    "jobs2": ["--jobs", "2"],
    "ray": ["--ray", "local"],
}

FASTER_WHISPER = """
import sys
from faster_whisper import BatchedInferencePipeline, WhisperModel
from app.engine.runtime.ort_sessions import physical_cores
model_dir, files = sys.argv[1], sys.argv[2:]
model = WhisperModel(model_dir, device="cpu", compute_type="int8", cpu_threads=physical_cores())
pipeline = BatchedInferencePipeline(model)
for name in files:
    segments, info = pipeline.transcribe(name, beam_size=1, batch_size=8, language="en")
    text = "".join(s.text for s in segments).strip()
    print(name + "\\t" + text.replace("\\n", " "))
"""


def build_folder(root: Path, copies: int) -> tuple[dict[str, str], float]:
    """The archive under root/in: ({input path: reference text}, seconds of audio)."""
    from app.audio.file_decoder import probe_duration

    archive = root / "in"
    texts = {c["file"].removesuffix(".wav"): c["text"] for c in espeak_clips()}
    stems = make_archive(archive, copies * len(texts), long_file=True)
    references = {str(archive / f"{stem}.wav"): texts[clip] for stem, clip in stems.items()}
    references[str(archive / f"{LONG_STEM}.wav")] = " ".join(c["text"] for _ in range(2) for c in espeak_clips())
    if SHARED_SPEECH.is_dir():
        (archive / "shared").mkdir()
        for row in shared_english():
            target = archive / "shared" / row["file"]
            shutil.copy(SHARED_SPEECH / row["file"], target)
            references[str(target)] = row["reference_text"]
    seconds = sum(probe_duration(name) or 0.0 for name in references)
    return references, seconds


def run_earshot(name: str, archive: Path, out: Path, model: str | None) -> tuple[float, dict[str, str]]:
    """(wall s, {input path: text}) of one earshot run."""
    command = [sys.executable, "-m", "app", "transcribe", str(archive), "--recursive", "--output-dir", str(out),
               "--beam-size", "1", "--precision", "int8", *RUNS[name], *(["--model", model] if model else [])]
    t0 = time.perf_counter()
    result = subprocess.run(command, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
                            capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if result.returncode != 0:
        raise SystemExit(f"{name} failed:\n{result.stderr[-3000:]}")
    texts = {}
    for line in (out / "earshot-manifest.jsonl").read_text().splitlines():
        record = json.loads(line)
        texts[record["source"]] = (out / record["outputs"][0]).read_text()
    return wall, texts


def run_faster_whisper(files: list[str], model_dir: Path) -> tuple[float, dict[str, str]]:
    t0 = time.perf_counter()
    result = subprocess.run([sys.executable, "-c", FASTER_WHISPER, str(model_dir), *files], cwd=REPO,
                            env={**os.environ, "PYTHONPATH": str(REPO)}, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    texts = dict(line.split("\t", 1) for line in result.stdout.splitlines() if "\t" in line)
    return wall, texts


def driver_overhead(n_files: int) -> None:
    """Seconds of driver work per file (no model): writing a result (transcript + manifest line,
    both fsynced), and the second run's skip check; what bounds files per second on a cluster."""
    from app.archive.inputs import ArchiveInput
    from app.commands.archive import ArchiveRun
    from app.engine.export.formats import TranscriptMeta
    from app.engine.types import DecodeOptions, Segment, Timings

    root = Path(tempfile.mkdtemp(prefix="earshot-driver-bench-"))
    inputs = []
    for i in range(n_files):
        path = root / "in" / f"d{i % 10}" / f"f{i:05d}.wav"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(os.urandom(160_000))  # 5 s of 16 kHz 16-bit audio, as bytes to hash
        inputs.append(ArchiveInput(path, f"d{i % 10}/f{i:05d}"))
    run = ArchiveRun(root / "out", ["txt"], None, {"model": "bench"}, force=False)
    t0 = time.perf_counter()
    jobs = run.plan(inputs, DecodeOptions())
    hashing = time.perf_counter() - t0
    t0 = time.perf_counter()
    for job in jobs:
        meta = TranscriptMeta(job.source, "bench", "int8", "en", 1.0, 5.0, Timings())
        run._record(inputs[job.index], FileResult(job.index, FileOutcome.DONE, [Segment(0, 0.0, 5.0, " words")], meta))
    writing = time.perf_counter() - t0
    t0 = time.perf_counter()
    ArchiveRun(root / "out", ["txt"], None, {"model": "bench"}, force=False).plan(inputs, DecodeOptions())
    skipping = time.perf_counter() - t0
    print(f"driver, {n_files} files of 160 kB: first listing + hash {1000 * hashing / n_files:.2f} ms/file, "
          f"writing a result {1000 * writing / n_files:.2f} ms/file, second run's skip check "
          f"{1000 * skipping / n_files:.2f} ms/file")
    shutil.rmtree(root, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--model", default=None, help="earshot model name (default: the bundled tiny.en)")
    parser.add_argument("--driver", type=int, default=0, metavar="N",
                        help="only measure the driver's own work per file, on N generated files")
    parser.add_argument("--runs", nargs="+", default=["jobs1", "jobs2", "ray", "fw"], choices=[*RUNS, "fw"])
    args = parser.parse_args()
    if args.driver:
        return driver_overhead(args.driver)
    from compare import model_folder

    from app.engine.wer import word_error_rate

    root = Path(tempfile.mkdtemp(prefix="earshot-archive-bench-"))
    references, seconds = build_folder(root, args.copies)
    files = sorted(references)
    best: dict[str, tuple[float, float]] = {}
    for round_number in range(args.rounds):
        for name in args.runs:
            if name == "fw":
                wall, texts = run_faster_whisper(files, model_folder(args.model or "tiny.en"))
            else:
                wall, texts = run_earshot(name, root / "in", root / f"out-{name}-{round_number}", args.model)
            wer = word_error_rate([references[f] for f in files], [texts.get(f, "") for f in files])
            print(f"round {round_number + 1} {name}: {wall:.1f} s, WER {wer:.2f} %", file=sys.stderr)
            if name not in best or wall < best[name][0]:
                best[name] = (wall, wer)
    print(f"\n{len(files)} files, {seconds / 60:.1f} min of audio, model {args.model or 'tiny.en'}, "
          f"{os.cpu_count()} CPUs\n")
    print("| run | wall s | audio h / wall h | WER % |\n|---|---:|---:|---:|")
    labels = {"jobs1": "earshot --jobs 1", "jobs2": "earshot --jobs 2", "ray": "earshot --ray local",
              "fw": "faster-whisper BatchedInferencePipeline (batch 8)"}
    for name, (wall, wer) in best.items():
        print(f"| {labels[name]} | {wall:.1f} | {seconds / wall:.1f} | {wer:.2f} |")
    shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()

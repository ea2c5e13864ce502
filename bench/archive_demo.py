"""The archive demonstration: a folder of 200 short files and 3 long ones through
`earshot transcribe DIR --recursive`, killed with SIGKILL a third of the way, resumed, skipped,
and run again on a local Ray cluster with the same transcripts.

    python bench/archive_demo.py                 # 200 short + 3 long files, tiny.en, greedy
    python bench/archive_demo.py --short 40 --long-s 60   # a quicker look

The folder (in a temporary directory, deleted at the end unless --keep): short files cycle over
the committed espeak clips (tests/data) and the English clips of ../shared/data/speech when that
folder is present, each at its own gain (0.55-1.0) and some with 0.3 s of leading silence, so no
two files have the same bytes; they lie in nested box*/tape*/ folders. The long files join every
clip with 0.5 s pauses, repeated to about --long-s seconds (the first one), 0.8x and 0.6x that.

Every run is `sys.executable -m app transcribe IN --recursive --output-dir OUT --beam-size 1`
(tiny.en, the default model and precision), what a user runs, in a fresh process:
  (a) --jobs 2, the process group killed with SIGKILL once a third of the files are in the manifest;
  (b) the same command again: it must finish all files without rewriting any finished transcript
      (their mtimes are compared);
  (c) the same command a third time: everything skipped;
  (d) --ray local --force into a second output folder; every transcript is compared with (b)'s.
One line is printed per step, then the earshot summary line of each run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from earshot_testing import DATA_DIR, SHARED_SPEECH, espeak_clips, read_wav, shared_english, write_wav  # noqa: E402

MANIFEST = "earshot-manifest.jsonl"
RATE = 16000


def source_clips() -> list[np.ndarray]:
    """float32 [n] 16 kHz mono clips: the committed espeak ones, then the shared English ones."""
    clips = [read_wav(DATA_DIR / c["file"]) for c in espeak_clips()]
    if SHARED_SPEECH.is_dir():
        import soundfile

        for row in shared_english():
            audio, rate = soundfile.read(SHARED_SPEECH / row["file"], dtype="float32", always_2d=True)
            if rate == RATE:  # the .wav copies are 16 kHz; anything else is left out, not resampled
                clips.append(audio.mean(axis=1).astype(np.float32))
    return clips


def build_folder(root: Path, short: int, long_s: float) -> float:
    """Write the archive under root; returns its seconds of audio."""
    clips = source_clips()
    total = 0.0
    for i in range(short):
        audio = clips[i % len(clips)] * (0.55 + 0.45 * (i % 10) / 9)
        if i % 3 == 2:
            audio = np.concatenate([np.zeros(int(0.3 * RATE), np.float32), audio])
        path = root / f"box{i % 4}" / (f"tape{i % 3}" if i % 3 else "") / f"{i:03d}.wav"
        path.parent.mkdir(parents=True, exist_ok=True)
        write_wav(path, audio)
        total += len(audio) / RATE
    pause = np.zeros(RATE // 2, np.float32)
    joined = np.concatenate([part for c in clips for part in (c, pause)])
    for n, scale in enumerate([1.0, 0.8, 0.6]):
        samples = int(long_s * scale * RATE)
        audio = np.tile(joined, samples // len(joined) + 1)[:samples]
        (root / "long").mkdir(exist_ok=True)
        write_wav(root / "long" / f"long{n}.wav", audio)
        total += samples / RATE
    return total


def command(archive: Path, out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "app", "transcribe", str(archive), "--recursive", "--output-dir", str(out),
            "--beam-size", "1", *extra]


def records(out: Path) -> dict[str, dict[str, Any]]:
    """{stem: manifest record} of an output folder (a torn last line ignored)."""
    path = out / MANIFEST
    found: dict[str, dict[str, Any]] = {}
    for line in path.read_text().splitlines() if path.is_file() else []:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        found[record["stem"]] = record
    return found


def run(cmd: list[str], log: Path, kill_at: int = 0, out: Path | None = None) -> tuple[float, int, str]:
    """(wall s, return code, stderr) of one run; with kill_at, SIGKILL its process group (driver and
    workers, as `kill -9 -PGID`) once `out`'s manifest names kill_at files."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    t0 = time.perf_counter()
    with log.open("w") as err:
        process = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=err,
                                   start_new_session=True)
        while kill_at and process.poll() is None:
            if out is not None and len(records(out)) >= kill_at:
                os.killpg(process.pid, signal.SIGKILL)
                break
            time.sleep(0.2)
        code = process.wait()
    return time.perf_counter() - t0, code, log.read_text()


def summary_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.startswith("earshot: ") and " done, " in line]
    return lines[-1] if lines else "(no summary line)"


def texts(out: Path) -> dict[str, str]:
    return {stem: (out / r["outputs"][0]).read_text() for stem, r in records(out).items()}


def output_mtimes(out: Path) -> dict[str, int]:
    return {stem: (out / r["outputs"][0]).stat().st_mtime_ns for stem, r in records(out).items()}


def compare(first: dict[str, str], second: dict[str, str]) -> str:
    from app.engine.wer import word_error_rate

    differing = sorted(s for s in first.keys() | second.keys() if first.get(s) != second.get(s))
    if not differing:
        return f"all {len(first)} transcripts identical"
    wers = ", ".join(f"{s} ({word_error_rate([first.get(s, '')], [second.get(s, '')]):.1f} % WER)"
                     for s in differing)
    return f"{len(differing)} of {len(first)} differ: {wers}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--short", type=int, default=200, help="number of short files (default 200)")
    parser.add_argument("--long-s", type=float, default=180.0, help="seconds of the first long file")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="earshot-archive-demo-"))
    archive, out, out_ray = root / "in", root / "out", root / "out-ray"
    seconds = build_folder(archive, args.short, args.long_s)
    total = args.short + 3
    print(f"folder: {total} files, {seconds / 60:.1f} min of audio, {os.cpu_count()} CPUs, {root}", flush=True)
    base = command(archive, out, "--jobs", "2")
    print("command:", " ".join(base[1:]).replace(str(root), "$TMP"), flush=True)
    summaries = {}

    wall, code, err = run(base, root / "a.log", kill_at=total // 3, out=out)
    before = output_mtimes(out)
    print(f"(a) killed with SIGKILL after {wall:.1f} s, rc {code}: {len(before)} files in the manifest", flush=True)

    wall, code, err = run(base, root / "b.log")
    after = output_mtimes(out)
    rewritten = [s for s in before if after.get(s) != before[s]]
    summaries["b"] = summary_line(err)
    print(f"(b) resumed in {wall:.1f} s, rc {code}: {len(after)}/{total} done, "
          f"{len(rewritten)} of the {len(before)} finished transcripts rewritten", flush=True)

    wall, code, err = run(base, root / "c.log")
    summaries["c"] = summary_line(err)
    unchanged = output_mtimes(out) == after
    print(f"(c) third run in {wall:.1f} s, rc {code}: {summaries['c'].split(';')[0]}; "
          f"outputs untouched: {unchanged}", flush=True)

    wall, code, err = run(command(archive, out_ray, "--ray", "local", "--force"), root / "d.log")
    summaries["d"] = summary_line(err)
    print(f"(d) --ray local --force in {wall:.1f} s, rc {code}: {len(records(out_ray))}/{total} done; "
          f"vs (b): {compare(texts(out), texts(out_ray))}", flush=True)

    for step, line in summaries.items():
        print(f"(e) summary {step}: {line}", flush=True)
    if not args.keep:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()

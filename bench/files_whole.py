"""Whole process on many files, beside faster-whisper, idle and with other programs busy.

Earshot: one `python -m app transcribe FILE... --precision auto --beam-size B --format txt` process
over the English files of ../shared/data/speech and speech2 (23 files, 7 min: read, accented,
spontaneous, whispered, noisy, a 100 s room recording, 158 s of sonnets, three speakers), as a
user runs it (the speech map and the gap filler included). faster-whisper: one process that loads
int8 on the same tiny.en folder (2 threads) and transcribes the same files (its defaults: no
voice filter, the previous text as prompt). Both processes are timed whole, start-up included,
rounds alternating, first idle, then beside `--busy N` busy-loop processes.

    python bench/files_whole.py [--rounds 3] [--busy 1] [--beam 1]

Prints each round's wall seconds and Earshot's over faster-whisper's, the medians, and each
engine's WER over all files (normalised, app/engine/wer.py).
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from compare import busy_programs, model_folder  # noqa: E402

from app.engine.wer import word_error_rate  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"
FW_SCRIPT = """
import json, sys
from faster_whisper import WhisperModel
folder, beam, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
model = WhisperModel(folder, device="cpu", compute_type="int8", cpu_threads=2)
texts = [" ".join(s.text.strip() for s in model.transcribe(f, beam_size=beam)[0]) for f in files]
print(json.dumps(texts))
"""


def english_files() -> list[tuple[Path, str]]:
    """(file, reference) of every English recording of speech and speech2."""
    found = []
    for folder in (SHARED / "speech", SHARED / "speech2"):
        with (folder / "manifest.csv").open(encoding="utf-8") as handle:
            rows = [r for r in csv.DictReader(handle) if r["language"] == "en"]
        found += [(folder / r["file"], r["reference_text"]) for r in rows]
    return found


def run_earshot(files: list[Path], beam: int, out: Path) -> tuple[float, list[str]]:
    start = time.perf_counter()
    command = [sys.executable, "-m", "app", "transcribe", *map(str, files), "--precision", "auto",
               "--beam-size", str(beam), "--format", "txt", "--output-dir", str(out)]
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True)
    wall = time.perf_counter() - start
    return wall, [(out / f"{f.stem}.txt").read_text(encoding="utf-8") for f in files]


def run_faster_whisper(files: list[Path], beam: int) -> tuple[float, list[str]]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", FW_SCRIPT, str(model_folder("tiny.en")), str(beam), *map(str, files)],
                          check=True, capture_output=True, text=True)
    return time.perf_counter() - start, json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--busy", type=int, default=1, help="busy-loop processes in the second half (0: idle only)")
    parser.add_argument("--beam", type=int, default=1)
    args = parser.parse_args()
    pairs = english_files()
    files, references = [f for f, _ in pairs], [r for _, r in pairs]
    seconds = sum(f.stat().st_size for f in files) / 32000  # 16-bit mono 16 kHz
    print(f"{len(files)} files, about {seconds:.0f} s, beam {args.beam}")
    with tempfile.TemporaryDirectory() as tmp:
        run_earshot(files[:1], args.beam, Path(tmp) / "warm")  # converts the model once, untimed
        for load in [0, args.busy] if args.busy else [0]:
            ratios: list[float] = []
            walls: dict[str, list[float]] = {"earshot": [], "faster-whisper": []}
            texts: dict[str, list[str]] = {}
            for r in range(args.rounds):
                with busy_programs(load):
                    wall_e, texts["earshot"] = run_earshot(files, args.beam, Path(tmp) / f"out-{load}-{r}")
                    wall_f, texts["faster-whisper"] = run_faster_whisper(files, args.beam)
                walls["earshot"].append(wall_e)
                walls["faster-whisper"].append(wall_f)
                ratios.append(wall_e / wall_f)
                print(f"busy {load} round {r + 1}: earshot {wall_e:.2f} s, faster-whisper {wall_f:.2f} s, "
                      f"ratio {wall_e / wall_f:.2f}", flush=True)
            wer = {name: word_error_rate(references, t) for name, t in texts.items()}
            print(f"busy {load}: median earshot {statistics.median(walls['earshot']):.2f} s, faster-whisper "
                  f"{statistics.median(walls['faster-whisper']):.2f} s, ratio of medians "
                  f"{statistics.median(walls['earshot']) / statistics.median(walls['faster-whisper']):.2f}, "
                  f"median ratio {statistics.median(ratios):.2f}; WER earshot {wer['earshot']:.2f} %, "
                  f"faster-whisper {wer['faster-whisper']:.2f} %")


if __name__ == "__main__":
    main()

"""Whether this checkout writes what another revision writes, on every clip of the shared sets.

    python bench/same_outputs.py REV [--sets speech speech2 robustness] [--keep DIR] [--live]

REV (a commit, branch or tag) is checked out in a detached worktree. Each checkout runs
`python -m app transcribe` on every WAV of ../shared/data/<set> twice: greedy text
(`--beam-size 1 --format txt`) and beam 5 with word times (`--beam-size 5 --word-timestamps
--format json`), with its own cache, data and config folders. Prints the clips whose output
differs (in the JSON: text, segments, tokens, probabilities and word times; the run's own
`timings` are left out), the first words that differ, and each set's WER on its English clips
in both checkouts. A move that changes no behaviour prints 0 differing clips. A change of the
engine's arithmetic (with int8 weights, one float rounding moves later roundings) shows here
as clips that differ and the WER each set moves by.

`--live` also replays the live sessions of `bench/dictation.py --fast` (speech with pauses and
continuous, speech2 and robustness, each both ways) through each checkout's own bench script,
and compares each session's committed text, live WER and per-word latency (fast replay is
paced by the stream, not the machine, so the same code commits the same words).
"""

from __future__ import annotations

import argparse
import ast
import csv
import difflib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))

from app.engine.wer import word_error_rate  # noqa: E402

SHARED = HERE.parent / "shared" / "data"
RUNS = {
    "greedy": (["--beam-size", "1", "--format", "txt"], ".txt"),
    "beam5-words": (["--beam-size", "5", "--word-timestamps", "--format", "json"], ".json"),
}


def transcribe(checkout: Path, files: list[Path], home: Path, out: Path) -> None:
    """Both runs of `files` in `checkout`, outputs under out/<run>/."""
    env = dict(os.environ, XDG_CACHE_HOME=str(home / "cache"), XDG_DATA_HOME=str(home / "data"),
               XDG_CONFIG_HOME=str(home / "config"), PYTHONPATH=str(checkout))
    for run, (flags, _) in RUNS.items():
        command = [sys.executable, "-m", "app", "transcribe", *map(str, files), *flags, "--output-dir", str(out / run)]
        done = subprocess.run(command, cwd=checkout, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            sys.exit(f"{checkout}: {run} failed:\n{done.stderr[-2000:]}")


def comparable(path: Path) -> object:
    """The output as compared: a text file whole, a JSON without the run's own timings."""
    if path.suffix == ".txt":
        return path.read_text(encoding="utf-8")
    data = json.loads(path.read_text(encoding="utf-8"))
    data.pop("timings", None)
    data.pop("file", None)
    return data


def text_of(path: Path) -> str:
    if path.suffix == ".txt":
        return path.read_text(encoding="utf-8")
    return str(json.loads(path.read_text(encoding="utf-8"))["text"])


def first_change(a: str, b: str) -> str:
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a.split(), b=b.split(), autojunk=False).get_opcodes():
        if tag != "equal":
            return f"{' '.join(a.split()[i1:i2]) or '-'} -> {' '.join(b.split()[j1:j2]) or '-'}"
    return "(same words; scores or times differ)"


def english_references(folder: Path) -> dict[str, str]:
    with (folder / "manifest.csv").open(encoding="utf-8") as handle:
        return {r["clip_id"]: r["reference_text"] for r in csv.DictReader(handle)
                if r["language"] == "en" and r["reference_text"].strip()}


def output(out: Path, name: str, run: str, stem: str) -> Path:
    return out / name / run / f"{stem}{RUNS[run][1]}"


def different(base: Path, this: Path, name: str, run: str, stem: str) -> bool:
    return comparable(output(base, name, run, stem)) != comparable(output(this, name, run, stem))


def report(sets: list[str], outs: dict[str, Path]) -> int:
    """Print the differing clips and the WERs; the number of differing outputs."""
    changed = 0
    base, this = outs.values()
    for name in sets:
        references = english_references(SHARED / name)
        stems = sorted(p.stem for p in (SHARED / name).glob("*.wav"))
        english = [s for s in stems if s in references]
        for run in RUNS:
            differ = [s for s in stems if different(base, this, name, run, s)]
            changed += len(differ)
            truth = [references[s] for s in english]
            wers = [word_error_rate(truth, [text_of(output(out, name, run, s)) for s in english])
                    for out in (base, this)]
            print(f"{name:11} {run:12} {len(differ):3} of {len(stems)} differ   "
                  f"English WER {wers[0]:.2f} -> {wers[1]:.2f} %")
            for s in differ:
                before, after = (text_of(output(out, name, run, s)) for out in (base, this))
                print(f"    {s}: {first_change(before, after)}")
    return changed


LIVE_SETS = ["pauses", "continuous", "speech2", "robustness"]
Sessions = dict[str, tuple[str, dict[str, object]]]
"""Set name -> (committed text, the bench's row of scores)."""


def live_sessions(checkout: Path, home: Path) -> Sessions:
    """Each fast-replayed live session of `checkout`: set name -> (committed text, scores)."""
    env = dict(os.environ, XDG_CACHE_HOME=str(home / "cache"), XDG_DATA_HOME=str(home / "data"),
               XDG_CONFIG_HOME=str(home / "config"))
    command = [sys.executable, "bench/dictation.py", "--fast", "--texts", "--sets", *LIVE_SETS]
    done = subprocess.run(command, cwd=checkout, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"{checkout}: live replay failed:\n{done.stderr[-2000:]}")
    sessions: Sessions = {}
    row: dict[str, object] | None = None
    for line in done.stderr.splitlines():
        if line.startswith("{'set'"):
            row = ast.literal_eval(line[: line.rindex("}") + 1])
        elif line.startswith("  live:") and row is not None:
            sessions[str(row["set"])] = (line.split(":", 1)[1].strip(), row)
            row = None
    return sessions


def report_live(before: Sessions, after: Sessions) -> int:
    """Print each live session side by side; the number whose committed text differs."""
    changed = 0
    for name, (text, row) in before.items():
        new_text, new_row = after.get(name, ("", {}))
        same = text == new_text
        changed += not same
        print(f"live {name:28} {'same text' if same else 'TEXT DIFFERS'}   WER {row.get('wer_live')} -> "
              f"{new_row.get('wer_live')} %   word p50/p95 {row.get('word_p50_s')}/{row.get('word_p95_s')} -> "
              f"{new_row.get('word_p50_s')}/{new_row.get('word_p95_s')} s")
        if not same:
            print(f"    {first_change(text, new_text)}")
    return changed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("rev")
    parser.add_argument("--sets", nargs="*", default=["speech", "speech2", "robustness"])
    parser.add_argument("--keep", type=Path, help="write the outputs here instead of a temporary folder")
    parser.add_argument("--live", action="store_true", help="also compare the fast-replayed live sessions")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or Path(tmp)
        other = Path(tmp) / "other"
        (Path(tmp) / "shared").symlink_to(HERE.parent / "shared")  # the recordings, beside the worktree too
        subprocess.run(["git", "-C", str(HERE), "worktree", "add", "--detach", "-q", str(other), args.rev], check=True)
        try:
            outs = {args.rev: root / "rev", "this checkout": root / "this"}
            for (label, out), checkout in zip(outs.items(), (other, HERE), strict=True):
                print(f"transcribing with {label} ...", flush=True)
                for name in args.sets:
                    files = sorted((SHARED / name).glob("*.wav"))
                    transcribe(checkout, files, Path(tmp) / f"home-{out.name}", out / name)
            print(f"\n{args.rev} -> this checkout (tiny.en, precision auto)")
            changed = report(args.sets, outs)
            if args.live:
                print()
                sessions = [live_sessions(checkout, Path(tmp) / f"home-{out.name}")
                            for out, checkout in zip(outs.values(), (other, HERE), strict=True)]
                changed += report_live(*sessions)
            print(f"\n{changed} outputs differ")
        finally:
            subprocess.run(["git", "-C", str(HERE), "worktree", "remove", "--force", str(other)], check=False)


if __name__ == "__main__":
    main()

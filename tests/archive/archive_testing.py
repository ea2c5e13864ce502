"""Archive test folders built from the committed clips, and `earshot transcribe` runs on them."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from earshot_testing import DATA_DIR, REPO_ROOT, espeak_clips, process_tree, read_wav, still_running, write_wav

LONG_STEM = "long/all_clips"
MANIFEST = "earshot-manifest.jsonl"


def make_archive(root: Path, copies: int, long_file: bool = False, start: int = 0) -> dict[str, str]:
    """`copies` copies of the speech clips in nested folders under `root` (and one ~1 min file
    made by joining every clip twice, with 0.5 s pauses); returns {output stem: clip stem}."""
    clips = espeak_clips()
    stems: dict[str, str] = {}
    for i in range(start, start + copies):
        clip = Path(clips[i % len(clips)]["file"])
        relative = Path(f"box{i % 3}") / (f"tape{i % 2}" if i % 2 else "") / f"{i:03d}_{clip.stem}.wav"
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(DATA_DIR / clip, root / relative)
        stems[str(relative.with_suffix("").as_posix())] = clip.stem
    if long_file:
        pause = np.zeros(8000, np.float32)
        audio = np.concatenate([part for _ in range(2) for c in clips for part in (read_wav(DATA_DIR / c["file"]),
                                                                                   pause)])
        (root / "long").mkdir(parents=True, exist_ok=True)
        write_wav(root / f"{LONG_STEM}.wav", audio)
    return stems


def earshot_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "app", "transcribe", "--beam-size", "1", *args]


def earshot_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO_ROOT)}


def earshot(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(earshot_command(*args), capture_output=True, text=True, cwd=REPO_ROOT,
                          env=earshot_env(), timeout=600)


def single_file_texts(out: Path) -> dict[str, str]:
    """{clip stem: text} from a plain `earshot transcribe FILE... --output-dir` run (today's path)."""
    files = [str(DATA_DIR / c["file"]) for c in espeak_clips()]
    result = earshot(*files, "--output-dir", str(out))
    assert result.returncode == 0, result.stderr
    return {Path(f).stem: (out / f"{Path(f).stem}.txt").read_text() for f in files}


def summary_counts(stderr: str) -> tuple[int, int, int]:
    """(done, skipped, failed) from the run's summary line."""
    match = re.search(r"(\d+) done, (\d+) skipped \(already done\), (\d+) failed", stderr)
    assert match, stderr
    done, skipped, failed = (int(g) for g in match.groups())
    return done, skipped, failed


def manifest_stems(out: Path) -> list[str]:
    path = out / MANIFEST
    if not path.is_file():
        return []
    stems = []
    for line in path.read_text().splitlines():
        with contextlib.suppress(ValueError):  # a line being written right now
            stems.append(json.loads(line)["stem"])
    return stems


STOP_WITHIN_S = 10.0
"""From the signal to the run's end with every worker gone (the 2 busy cores here: seconds)."""


def start_run(archive: Path, out: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(earshot_command(str(archive), "--recursive", "--output-dir", str(out), *args),
                            cwd=REPO_ROOT, env=earshot_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def wait_for(process: subprocess.Popen[str], out: Path, finished: int, workers: int) -> list[int]:
    """Wait until `finished` files are recorded and `workers` processes run under `process`; its tree."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        tree = process_tree(process.pid)
        if len(manifest_stems(out)) >= finished and len(still_running(tree)) >= workers:
            return tree
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)
    raise AssertionError("the run did not get that far")


def stop_and_check(process: subprocess.Popen[str], tree: list[int], signum: int) -> str:
    """Send `signum`; the run's output ends and every process of its tree is gone within STOP_WITHIN_S."""
    sent = time.monotonic()
    process.send_signal(signum)
    try:
        _, stderr = process.communicate(timeout=STOP_WITHIN_S)  # EOF: nothing holds stdout/stderr any more
    except subprocess.TimeoutExpired:
        process.kill()
        raise AssertionError(f"still running {STOP_WITHIN_S} s after {signal.Signals(signum).name}: "
                             f"{still_running(tree)}") from None
    while still_running(tree) and time.monotonic() - sent < STOP_WITHIN_S:
        time.sleep(0.05)
    assert still_running(tree) == [], f"left running after {signal.Signals(signum).name}"
    assert process.returncode == (-signum if signum == signal.SIGKILL else 128 + signum), stderr
    assert "Traceback" not in stderr, stderr
    return stderr


def check_resumed(archive: Path, out: Path, stems: list[str]) -> None:
    """Every recorded file has its transcript, nothing half-written is left, and a rerun does the rest."""
    finished = manifest_stems(out)
    assert all((out / f"{stem}.txt").is_file() for stem in finished)
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")], "a temporary file was left"
    resumed = earshot(str(archive), "--recursive", "--output-dir", str(out), "--jobs", "1")
    assert resumed.returncode == 0, resumed.stderr
    assert summary_counts(resumed.stderr) == (len(stems) - len(finished), len(finished), 0)
    assert sorted(manifest_stems(out)) == sorted(stems)

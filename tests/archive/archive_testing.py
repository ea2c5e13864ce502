"""Archive test folders built from the committed clips, and `earshot transcribe` runs on them."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
from earshot_testing import DATA_DIR, REPO_ROOT, espeak_clips, read_wav, write_wav

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

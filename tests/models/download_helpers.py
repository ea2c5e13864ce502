"""Constants and CLI runners for the download tests (not in conftest: tests/ui has one too)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
TINY_COPY_REPO = "test-owner/whisper-tiny-copy"  # tiny.en's bytes under a name that is not the bundled one
BAD_TOKENIZER_REPO = "test-owner/whisper-bad-tokenizer"  # tiny.en's weights with a tokenizer of another kind


def earshot(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """`python -m app ARGS` from the repository root, with this test's environment."""
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    return subprocess.run([sys.executable, "-m", "app", *args], cwd=REPO_ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout, check=False)


def start_earshot(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    return subprocess.Popen([sys.executable, "-m", "app", *args], cwd=REPO_ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)

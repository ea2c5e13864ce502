"""A provider this onnxruntime build lacks (`--provider cuda` here, or a settings file brought
from a machine with a GPU) loads the model on the CPU and names that, in the words the CLI
prints once and the app shows under the model: the CPU is never chosen silently.

Real model and real onnxruntime: the CPU-only build this machine and CI install offers no GPU
provider, which is the case under test. Where a build offers every provider there is nothing to
test, and the test says so."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from earshot_testing import DATA_DIR, REPO_ROOT, read_wav

from app.engine.models.loader import load_engine
from app.engine.runtime.ort_sessions import PROVIDER_NAMES, available_providers
from app.engine.types import DecodeOptions

CLIP = DATA_DIR / "espeak_meeting.wav"


def _missing_provider() -> str:
    missing = [name for name in PROVIDER_NAMES if name not in available_providers()]
    if not missing:
        pytest.skip("this onnxruntime build offers every provider Earshot knows")
    return missing[0]


def _text(engine) -> str:
    segments, _ = engine.transcribe(read_wav(CLIP), DecodeOptions(beam_size=1))
    return " ".join(s.text.strip() for s in segments)


def test_an_unavailable_provider_loads_on_the_cpu_and_says_so() -> None:
    missing = _missing_provider()
    engine = load_engine(provider=missing)
    assert engine.provider == "cpu"
    assert engine.fallback_reason == f"{missing} is not available in this onnxruntime build; using the CPU"
    cpu = load_engine()
    assert cpu.fallback_reason is None
    expected = _text(cpu)
    assert _text(engine) == expected and len(expected.split()) >= 8


@pytest.mark.parametrize("command", ["transcribe", "dictate"])
def test_the_cli_names_the_fallback_once_and_transcribes(command: str, tmp_path: Path) -> None:
    missing = _missing_provider()
    args = ["--output-dir", str(tmp_path)] if command == "transcribe" else ["--input"]
    done = subprocess.run(
        [sys.executable, "-m", "app", command, *args, str(CLIP), "--provider", missing],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    named = [line for line in done.stderr.splitlines() if "not available" in line]
    reason = f"{missing} is not available in this onnxruntime build; using the CPU"
    assert named == [f"earshot{' dictate' if command == 'dictate' else ''}: {reason}"], done.stderr
    text = (tmp_path / "espeak_meeting.txt").read_text() if command == "transcribe" else done.stdout
    assert len(text.split()) >= 8

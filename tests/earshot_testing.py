"""Helpers shared by the test modules (paths, clips, WAV reading). Import as `earshot_testing`."""

from __future__ import annotations

import json
import wave
from pathlib import Path

import numpy as np
import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
DATA_DIR = REPO_ROOT / "tests" / "data"
SHARED_SPEECH = REPO_ROOT.parent / "shared" / "data" / "speech"


def read_wav(path: Path) -> np.ndarray:
    """16-bit PCM WAV (16 kHz mono) -> float32 [n_samples] in [-1, 1]."""
    with wave.open(str(path), "rb") as wav:
        assert wav.getframerate() == 16000 and wav.getnchannels() == 1
        pcm = np.frombuffer(wav.readframes(wav.getnframes()), dtype="<i2")
    return (pcm.astype(np.float32) / 32768.0).astype(np.float32)


def espeak_clips() -> list[dict[str, str]]:
    """The committed espeak-ng clips with speech: [{"file", "text", ...}]."""
    listing = json.loads((DATA_DIR / "clips.json").read_text(encoding="utf-8"))
    return [c for c in listing["clips"] if c["kind"] == "speech"]


def shared_manifest() -> list[dict[str, str]]:
    """Rows of ../shared/data/speech/manifest.csv, or [] when that folder is absent."""
    import csv

    manifest = SHARED_SPEECH / "manifest.csv"
    if not manifest.is_file():
        return []
    with manifest.open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def shared_english() -> list[dict[str, str]]:
    return [r for r in shared_manifest() if r["language"] == "en"]


needs_shared = pytest.mark.skipif(not SHARED_SPEECH.is_dir(), reason="../shared/data/speech is not present")

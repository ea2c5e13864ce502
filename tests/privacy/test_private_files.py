"""What Earshot writes under the user's data, cache, config and log folders is the user's alone:
folders 0700, files 0600, even under umask 022 (the usual desktop default)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import wave
from pathlib import Path

from earshot_testing import DATA_DIR, REPO_ROOT, too_open

# The folders a desktop session points Earshot at, each under the test's own home.
_DIRS = {"XDG_CONFIG_HOME": "config", "XDG_DATA_HOME": "share", "XDG_CACHE_HOME": "cache",
         "XDG_STATE_HOME": "state", "EARSHOT_DATA_DIR": "share/earshot", "EARSHOT_CACHE_DIR": "cache/earshot",
         "EARSHOT_LOG_DIR": "state/earshot/log"}


def _earshot(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"HOME": str(home)} | {var: str(home / sub) for var, sub in _DIRS.items()}
    result = subprocess.run([sys.executable, "-m", "app", *args], cwd=REPO_ROOT, env=env, capture_output=True,
                            text=True, timeout=600, preexec_fn=lambda: os.umask(0o022))
    assert result.returncode == 0, result.stderr
    return result


def test_cli_transcription_import_and_recorded_dictation_leave_only_private_files(
        tmp_path: Path, bundled_model_dir: Path) -> None:
    clip = DATA_DIR / "espeak_weather.wav"
    _earshot(tmp_path, "transcribe", str(clip))  # converts tiny.en into a fresh cache
    _earshot(tmp_path, "models", "import", str(bundled_model_dir), "--name", "mine")
    events = _earshot(tmp_path, "dictate", "--input", str(clip), "--record", "--json").stdout
    assert json.loads(events.splitlines()[-1])  # the session ran

    recordings = list((tmp_path / "share" / "earshot" / "sessions").glob("*.wav"))
    assert len(recordings) == 1
    with wave.open(str(recordings[0])) as recording:
        assert recording.getnframes() > 0
    assert list((tmp_path / "cache" / "earshot" / "converted").glob("tiny.en-*/*/encoder.onnx"))
    assert (tmp_path / "share" / "earshot" / "models" / "mine" / "model.bin").is_file()
    roots = [tmp_path / sub for sub in ("config", "share", "cache", "state")]
    assert too_open([r for r in roots if r.exists()]) == []
    assert (tmp_path / "state" / "earshot" / "log" / "earshot.log").is_file()

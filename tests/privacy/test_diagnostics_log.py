"""The diagnostics log: caught failures land there with their traceback; the file is private."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

from earshot_testing import REPO_ROOT


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _earshot(log_dir: Path, *args: str, code: str | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m app ARGS` (or `python -c CODE`) under umask 022, as most desktops run it."""
    env = os.environ | {"EARSHOT_LOG_DIR": str(log_dir)}
    command = [sys.executable, "-c", code] if code else [sys.executable, "-m", "app", *args]
    return subprocess.run(command, cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=300,
                          preexec_fn=lambda: os.umask(0o022))


def test_version_names_the_log_file(tmp_path: Path) -> None:
    result = _earshot(tmp_path / "logs", "--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].startswith("earshot ")
    assert f"log: {tmp_path / 'logs' / 'earshot.log'}" in result.stdout


def test_a_failed_import_is_one_line_for_the_user_and_a_traceback_in_a_private_log(tmp_path: Path) -> None:
    not_a_model = tmp_path / "holiday-photos"
    not_a_model.mkdir()
    (not_a_model / "beach.jpg").write_bytes(b"\xff\xd8 not weights")
    logs = tmp_path / "state" / "logs"
    result = _earshot(logs, "models", "import", str(not_a_model))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    text = (logs / "earshot.log").read_text()
    assert "Traceback (most recent call last)" in text and "ModelFormatError" in text, text
    assert "import_model" in text  # the frames, not just the message
    assert _mode(logs / "earshot.log") == 0o600
    assert _mode(logs) == 0o700 and _mode(logs.parent) == 0o700


def test_rotated_log_files_stay_private(tmp_path: Path) -> None:
    code = ("import logging; from app.diagnostics import configure_logging; configure_logging()\n"
            "for i in range(6000): logging.getLogger('app.test').info('%d %s', i, 'x' * 1000)")
    result = _earshot(tmp_path / "logs", code=code)
    assert result.returncode == 0, result.stderr
    files = sorted((tmp_path / "logs").iterdir())
    assert [f.name for f in files] == ["earshot.log", "earshot.log.1", "earshot.log.2", "earshot.log.3"]
    assert {oct(_mode(f)) for f in files} == {oct(0o600)}

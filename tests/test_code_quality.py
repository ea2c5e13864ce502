"""The code-shape rules every contributor relies on: layering (engine, audio, dictation and
settings never import Qt), ruff and strict mypy on app/, bench/ and packaging/ (ruff on tests/
too; app/ in ruff format's layout)."""

from __future__ import annotations

import shutil
import subprocess
import sys

from earshot_testing import REPO_ROOT


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=REPO_ROOT, capture_output=True, text=True, timeout=600)


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(REPO_ROOT / ".venv" / "bin")) or shutil.which(name)
    assert found, f"{name} is not installed (pip install -e '.[test]')"
    return found


def test_import_layers_and_qt_free_core():
    result = _run(_tool("lint-imports"))
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_is_clean():
    result = _run(sys.executable, "-m", "ruff", "check", "app", "tests", "bench", "packaging")
    assert result.returncode == 0, result.stdout


def test_app_keeps_ruff_formats_layout():
    result = _run(sys.executable, "-m", "ruff", "format", "--check", "app")
    assert result.returncode == 0, result.stdout


def test_mypy_is_clean():
    result = _run(sys.executable, "-m", "mypy")
    assert result.returncode == 0, result.stdout

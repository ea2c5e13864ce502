"""`earshot transcribe` output as a user meets it: folders that cannot be written, a full disk,
inputs with the same name, several documents on stdout. A real process, the real tiny.en model,
real files and real (tmpfs) file systems."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from earshot_testing import DATA_DIR, REPO_ROOT, espeak_clips, fill_up, tmpfs

from app.engine.wer import normalize

CLIPS = espeak_clips()[:2]
INPUTS = [str(DATA_DIR / clip["file"]) for clip in CLIPS]


def earshot(*args: str, data_dir: Path | None = None, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    if data_dir is not None:
        env["EARSHOT_DATA_DIR"] = str(data_dir)
    return subprocess.run([sys.executable, "-m", "app", *args], capture_output=True, text=True, cwd=REPO_ROOT,
                          env=env, timeout=timeout)


def kept_transcripts(data_dir: Path) -> dict[str, str]:
    folder = data_dir / "unsaved-transcripts"
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir())} if folder.is_dir() else {}


@pytest.mark.parametrize("case", ["a_file", "read_only", "full_disk"])
def test_unwritable_output_dir_keeps_every_transcript(tmp_path, case):
    """One error line per document, every file still transcribed, each transcript kept (private
    fallback folder, named on stderr), exit status 1, no traceback; a full disk leaves no partial file."""
    data_dir = tmp_path / "data"
    if case == "a_file":
        target = tmp_path / "out.txt"
        target.write_text("not a folder")
        result = earshot("transcribe", *INPUTS, "--output-dir", str(target), "--beam-size", "1", data_dir=data_dir)
    else:
        with tmpfs(tmp_path / "disk", "size=64k" if case == "full_disk" else "ro") as target:
            if case == "full_disk":
                fill_up(target)
            before = sorted(p.name for p in target.iterdir())
            result = earshot("transcribe", *INPUTS, "--output-dir", str(target), "--beam-size", "1",
                             data_dir=data_dir)
            after = sorted(p.name for p in target.iterdir())
            assert after == before, "a partial or temporary transcript was left on the full disk"
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("earshot: error:")]
    reason = {"a_file": "is a file, not a folder", "read_only": "Read-only file system",
              "full_disk": "No space left on device"}[case]
    assert len(errors) == len(INPUTS) and all(reason in line for line in errors), result.stderr
    kept = kept_transcripts(data_dir)
    assert len(kept) == len(INPUTS), result.stderr
    for clip, (name, text) in zip(CLIPS, kept.items(), strict=True):
        assert name.startswith(Path(clip["file"]).stem) and normalize(text) == normalize(clip["text"])
        assert str(data_dir / "unsaved-transcripts" / name) in result.stderr
    assert (data_dir / "unsaved-transcripts").stat().st_mode & 0o077 == 0


def test_inputs_with_the_same_name_get_distinct_files(tmp_path):
    """`a/x.wav` and `b/x.wav` into one folder: x.txt and x-2.txt, in input order, said on stderr."""
    for folder, clip in zip(("a", "b"), CLIPS, strict=True):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "x.wav").write_bytes((DATA_DIR / clip["file"]).read_bytes())
    out = tmp_path / "out"
    result = earshot("transcribe", str(tmp_path / "a" / "x.wav"), str(tmp_path / "b" / "x.wav"),
                     "--output-dir", str(out), "--format", "txt", "--format", "srt", "--beam-size", "1")
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["x-2.srt", "x-2.txt", "x.srt", "x.txt"]
    assert normalize((out / "x.txt").read_text()) == normalize(CLIPS[0]["text"])
    assert normalize((out / "x-2.txt").read_text()) == normalize(CLIPS[1]["text"])
    assert any("b/x.wav" in line and "x-2" in line for line in result.stderr.splitlines()), result.stderr


def test_several_documents_on_stdout_are_each_marked():
    """Two files x two formats on stdout: a `==> FILE [FORMAT] <==` line before each document."""
    result = earshot("transcribe", *INPUTS, "--format", "txt", "--format", "srt", "--beam-size", "1")
    assert result.returncode == 0, result.stderr
    headers = [line for line in result.stdout.splitlines() if line.startswith("==> ")]
    assert headers == [f"==> {name} [{fmt}] <==" for name in INPUTS for fmt in ("txt", "srt")]
    documents = result.stdout.split("==> ")[1:]
    assert normalize(documents[0].split("\n", 1)[1]) == normalize(CLIPS[0]["text"])
    assert documents[1].split("\n", 1)[1].startswith("1\n00:00:0")


def test_several_json_documents_on_stdout_are_json_lines():
    result = earshot("transcribe", *INPUTS, "--format", "json", "--beam-size", "1")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    documents = [json.loads(line) for line in lines]
    assert [d["file"] for d in documents] == INPUTS
    assert [normalize(d["text"]) for d in documents] == [normalize(c["text"]) for c in CLIPS]


def test_one_document_on_stdout_is_printed_as_is():
    result = earshot("transcribe", INPUTS[0], "--format", "json", "--beam-size", "1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("{\n") and json.loads(result.stdout)["file"] == INPUTS[0]

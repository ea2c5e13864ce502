"""The manifest as a killed run leaves it: a torn last line, superseded lines, files gone since."""

from __future__ import annotations

import json

from app.archive.inputs import list_inputs
from app.archive.manifest import MANIFEST_NAME, Manifest

SETTINGS = {"model": "tiny.en", "precision": "int8", "options": {"beam_size": 1}, "formats": ["txt"]}


def _record(stem: str, sha: str) -> dict[str, object]:
    return {"stem": stem, "source": f"/in/{stem}.wav", "sha256": sha, "size": 1, "mtime_ns": 1,
            "settings": SETTINGS, "outputs": [f"{stem}.txt"], "duration_s": 1.0}


def test_a_torn_last_line_is_ignored_and_the_file_compacted(tmp_path):
    (tmp_path / "a.txt").write_text("a")
    lines = [json.dumps(_record("a", "old")), json.dumps(_record("a", "new")), '{"stem": "b", "sha2']
    (tmp_path / MANIFEST_NAME).write_text("\n".join(lines))  # as kill -9 during a write leaves it
    manifest = Manifest(tmp_path)
    assert list(manifest.records) == ["a"] and manifest.records["a"]["sha256"] == "new"
    assert len((tmp_path / MANIFEST_NAME).read_text().splitlines()) == 1  # compacted: one line per stem
    assert not list(tmp_path.glob(".*.tmp"))


def test_done_needs_the_same_content_settings_and_its_transcripts(tmp_path):
    source = tmp_path / "in" / "a.wav"
    source.parent.mkdir()
    source.write_bytes(b"RIFF....")
    out = tmp_path / "out"
    manifest = Manifest(out)
    identity = manifest.identity(source, "a")
    manifest.add({**_record("a", identity.sha256), "size": identity.size, "mtime_ns": identity.mtime_ns})
    (out / "a.txt").write_text("text")
    again = Manifest(out)
    assert again.is_done("a", again.identity(source, "a"), SETTINGS)
    assert not again.is_done("a", again.identity(source, "a"), {**SETTINGS, "precision": "fp32"})
    source.write_bytes(b"RIFF,,,,,")  # new content
    assert not again.is_done("a", again.identity(source, "a"), SETTINGS)
    (out / "a.txt").unlink()
    assert not again.is_done("a", identity, SETTINGS)  # its transcript was deleted: redo it


def test_folders_mirror_and_same_names_get_distinct_stems(tmp_path):
    for name in ("x.wav", "x.mp3", "sub/y.flac", "sub/.hidden.wav", "notes.txt", ".cache/z.wav"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(b"")
    flat, _ = list_inputs([str(tmp_path)], recursive=False)
    assert [i.stem for i in flat] == ["x", "x-2"]
    deep, problems = list_inputs([str(tmp_path), str(tmp_path / "missing")], recursive=True)
    assert [i.stem for i in deep] == ["sub/y", "x", "x-2"]
    assert problems == [f"{tmp_path / 'missing'}: no such file or folder"]

"""The manifest as a killed run or a damaged disk leaves it: a torn last line, superseded lines,
random bytes in the middle, a folder in its place, files gone since."""

from __future__ import annotations

import json
import random
import shutil
import subprocess

import pytest
from archive_testing import earshot, earshot_command, make_archive, manifest_stems, summary_counts
from earshot_testing import another_users, fill_up, home_env, tmpfs, without_file_permission_override

from app.archive.inputs import list_inputs
from app.archive.manifest import MANIFEST_NAME, Manifest, ManifestError

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


def _damage(seed: int) -> bytes:
    """A few hundred random bytes with no newline in them: a block of the disk gone bad."""
    return bytes(b for b in random.Random(seed).randbytes(400) if b != 0x0A)


def test_random_bytes_between_good_lines_are_skipped_with_one_warning(tmp_path, caplog):
    good = [json.dumps(_record(stem, stem * 4)) for stem in ("a", "b", "c", "d")]
    # after a's line; glued to the front of b's line; in place of c's line's middle
    torn_c = good[2][:40] + _damage(2).decode("latin-1") + good[2][-30:]
    data = (good[0].encode() + b"\n" + _damage(1) + b"\n" + _damage(3) + good[1].encode() + b"\n"
            + torn_c.encode("latin-1") + b"\n" + good[3].encode() + b"\n")
    (tmp_path / MANIFEST_NAME).write_bytes(data)
    manifest = Manifest(tmp_path)
    assert sorted(manifest.records) == ["a", "b", "d"]  # c's line is lost: only c is redone
    warnings = [r for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 1 and "2 damaged line(s)" in warnings[0].getMessage()
    lines = (tmp_path / MANIFEST_NAME).read_text(encoding="utf-8").splitlines()  # compacted, readable
    assert [json.loads(line)["stem"] for line in lines] == ["a", "b", "d"]
    caplog.clear()
    assert sorted(Manifest(tmp_path).records) == ["a", "b", "d"] and not caplog.records  # said once


@pytest.mark.parametrize("content", [b"", b"\n\n", b"\x00" * 4096, b"[1, 2]\n\"x\"\n{}\n",
                                     b'{"stem": 3, "sha256": "x"}\n'])
def test_empty_zeroed_or_foreign_manifests_mean_nothing_is_done(tmp_path, content):
    (tmp_path / MANIFEST_NAME).write_bytes(content)
    assert Manifest(tmp_path).records == {}


def test_a_manifest_that_is_a_folder_is_one_clear_error(tmp_path):
    (tmp_path / MANIFEST_NAME).mkdir()
    with pytest.raises(ManifestError, match=f"{MANIFEST_NAME}: cannot read the manifest"):
        Manifest(tmp_path)


def test_a_run_over_a_damaged_manifest_redoes_only_the_lost_inputs(tmp_path):
    archive, out = tmp_path / "in", tmp_path / "out"
    stems = make_archive(archive, copies=4)
    assert summary_counts(earshot(str(archive), "-r", "--output-dir", str(out), "--jobs", "1").stderr) == (4, 0, 0)
    path = out / MANIFEST_NAME
    lines = path.read_bytes().splitlines(keepends=True)
    lost = json.loads(lines[2])["stem"]
    lines[2] = lines[2][:50] + _damage(4) + b"\n"  # its record cut in two by bad bytes
    path.write_bytes(lines[0] + _damage(5) + b"\n" + b"".join(lines[1:]))
    again = earshot(str(archive), "-r", "--output-dir", str(out))
    assert again.returncode == 0, again.stderr
    assert "Traceback" not in again.stderr
    assert summary_counts(again.stderr) == (1, 3, 0)
    assert len([line for line in again.stderr.splitlines() if "damaged line" in line]) == 1, again.stderr
    assert lost in stems and sorted(manifest_stems(out)) == sorted(stems)
    assert len(path.read_text(encoding="utf-8").splitlines()) == 4


def test_a_run_whose_manifest_is_a_folder_stops_with_one_line(tmp_path):
    archive, out = tmp_path / "in", tmp_path / "out"
    make_archive(archive, copies=1)
    (out / MANIFEST_NAME).mkdir(parents=True)
    result = earshot(str(archive), "-r", "--output-dir", str(out))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("earshot: error:")]
    assert len(errors) == 1 and "cannot read the manifest" in errors[0], result.stderr
    shutil.rmtree(out / MANIFEST_NAME)


def test_a_full_disk_at_the_manifest_line_is_one_error_and_the_next_run_redoes_it(tmp_path):
    """The transcript still fits but its manifest line does not: a real full file system (tmpfs)."""
    archive = tmp_path / "in"
    stems = make_archive(archive, copies=2)
    with tmpfs(tmp_path / "out", "size=256k") as out:
        assert summary_counts(earshot(str(archive), "-r", "--output-dir", str(out)).stderr) == (2, 0, 0)
        manifest = out / MANIFEST_NAME
        size = manifest.stat().st_size
        with manifest.open("a") as handle:  # blank lines up to a page's end: the next line needs a new page
            handle.write("\n" * (-size % 4096))
        fill_up(out)
        redone, other = sorted(stems)
        shutil.copy(archive / f"{other}.wav", archive / f"{redone}.wav")  # new content: to be redone
        (out / f"{redone}.txt").unlink()  # frees the one page its new transcript needs
        full = earshot(str(archive), "-r", "--output-dir", str(out))
        assert full.returncode == 1 and "Traceback" not in full.stderr, full.stderr
        errors = [line for line in full.stderr.splitlines() if line.startswith("earshot: error:")]
        assert len(errors) == 1 and "No space left on device" in errors[0] and "not recorded" in errors[0]
        assert (out / f"{redone}.txt").is_file() and len(manifest_stems(out)) == 2  # only the old lines
        (out / "filler").unlink()
        again = earshot(str(archive), "-r", "--output-dir", str(out))
        assert again.returncode == 0 and summary_counts(again.stderr) == (1, 1, 0), again.stderr
        assert set(manifest_stems(out)) == set(stems)


def test_a_run_whose_manifest_this_user_may_not_read_stops_with_one_line(tmp_path):
    """A real unreadable manifest: another user's 0600 file (as `sudo earshot transcribe` leaves
    it), met by a run that root's file permission override is taken from. It stops before any
    transcript is written and the manifest is kept."""
    archive, out = tmp_path / "in", tmp_path / "out"
    make_archive(archive, copies=1)
    out.mkdir()
    theirs = json.dumps(_record("box0/000_x", "0" * 64)).encode() + b"\n"
    (out / MANIFEST_NAME).write_bytes(theirs)
    another_users(out / MANIFEST_NAME)
    result = subprocess.run(without_file_permission_override(earshot_command(str(archive), "-r", "--output-dir",
                                                                             str(out))),
                            cwd=tmp_path, env=home_env(tmp_path), capture_output=True, text=True, timeout=600)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("earshot: error:")]
    assert len(errors) == 1 and "cannot read the manifest (Permission denied)" in errors[0], result.stderr
    assert (out / MANIFEST_NAME).read_bytes() == theirs
    assert not list(out.rglob("*.txt"))

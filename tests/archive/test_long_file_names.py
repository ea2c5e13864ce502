"""Media files whose names are at the file system's limit (NAME_MAX, 255 bytes on ext4; long
podcast and video titles, often in Japanese or with emoji): `earshot transcribe` writes their
transcripts, one file each and never two in one name, as a file or as part of a folder run, and a
rerun of a folder finds them done. Real processes, the real tiny.en, real files on the real file
system under `tmp_path`."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

from archive_testing import MANIFEST, earshot_command, earshot_env, summary_counts
from earshot_testing import DATA_DIR, REPO_ROOT, espeak_clips

from app.engine.wer import normalize

CLIP = next(c for c in espeak_clips() if c["file"] == "espeak_weather.wav")
TITLE = "【ポッドキャスト】第12回 東京の朝、静かな会議室で話したこと "
"""A Japanese title: 3 bytes a character in UTF-8, with some ASCII between."""
SHORTENED = re.compile(r"~[0-9a-f]{8}$")


def name_max(folder: Path) -> int:
    return os.pathconf(folder, "PC_NAME_MAX")


def size(name: str) -> int:
    return len(os.fsencode(name))


def long_name(start: str, suffix: str, total: int, end: str = "") -> str:
    """A file name of exactly `total` bytes: `start` repeated (cut at a character), then `end`
    and `suffix`; padded with `_` where a character of 3 bytes does not fill the last bytes."""
    stem = ""
    while size(stem + start[len(stem) % len(start)] + end + suffix) <= total:
        stem += start[len(stem) % len(start)]
    stem += "_" * (total - size(stem + end + suffix))
    name = stem + end + suffix
    assert size(name) == total
    return name


def media(folder: Path, name: str) -> Path:
    """A copy of the weather clip named `name` in `folder` (made if missing)."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(DATA_DIR / CLIP["file"], folder / name)
    return folder / name


def run(*args: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    """`earshot transcribe ARGS`, its kept transcripts going under `data_dir`."""
    return subprocess.run(earshot_command(*args), capture_output=True, text=True, cwd=REPO_ROOT,
                          env={**earshot_env(), "EARSHOT_DATA_DIR": str(data_dir)}, timeout=600)


def shortened_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "name too long for this file system" in line]


def check_transcript(path: Path) -> None:
    """`path` is a transcript of the weather clip that fits its folder and reads as the clip says."""
    assert size(path.name) <= name_max(path.parent), path.name
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        text = json.loads(text)["text"]
    assert normalize(text) == normalize(CLIP["text"]), path.name


def test_a_file_whose_name_is_at_the_file_systems_limit_gets_its_transcript(tmp_path):
    """A 255-byte `.wav` (251-byte stem) and a Japanese title of 255 bytes: the `.txt` of each
    fits and keeps the media file's name; the `.json` (one byte longer) is shortened, said once a
    file on stderr; nothing goes to the fallback folder, no temporary file is left."""
    limit = name_max(tmp_path)
    plain = media(tmp_path / "in", long_name("a", ".wav", limit))
    japanese = media(tmp_path / "in", long_name(TITLE, ".wav", limit))
    out, data = tmp_path / "out", tmp_path / "data"
    result = run(str(plain), str(japanese), "--output-dir", str(out), "--format", "txt", "--format", "json",
                 data_dir=data)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""
    names = sorted(p.name for p in out.iterdir())
    assert len(names) == 4, names
    for source in (plain, japanese):
        assert (out / f"{source.stem}.txt").is_file()  # fits: the media file's own name
        json_names = [n for n in names if n.endswith(".json") and n.startswith(source.stem[:30])]
        assert len(json_names) == 1, names
        short = json_names[0].removesuffix(".json")
        assert SHORTENED.search(short) and source.stem.startswith(short[:-9]), short
        lines = [line for line in shortened_lines(result.stderr) if str(source) in line]
        assert lines == [f"earshot: {source}: name too long for this file system; its transcript is written as "
                         f"{short}.json"], result.stderr
    for path in out.iterdir():
        check_transcript(path)
    assert not (data / "unsaved-transcripts").exists()


def test_a_transcript_name_longer_than_the_limit_is_shortened_in_every_format(tmp_path):
    """A 255-byte name without a suffix (as a download can leave it): every format's name would
    pass the limit, so all of them share one shortened name, said in one line."""
    source = media(tmp_path / "in", long_name(TITLE, "", name_max(tmp_path)))
    out = tmp_path / "out"
    result = run(str(source), "--output-dir", str(out), "--format", "txt", "--format", "srt", "--format", "json",
                 data_dir=tmp_path / "data")
    assert result.returncode == 0, result.stderr
    stems = {p.stem for p in out.iterdir()}
    assert len(stems) == 1 and sorted(p.suffix for p in out.iterdir()) == [".json", ".srt", ".txt"]
    short = stems.pop()
    assert SHORTENED.search(short) and source.name.startswith(short[:-9])
    assert shortened_lines(result.stderr) == [
        f"earshot: {source}: name too long for this file system; its transcript is written as {short}.<format>"]
    check_transcript(out / f"{short}.txt")
    check_transcript(out / f"{short}.json")


def test_a_long_named_transcript_that_cannot_go_where_asked_is_kept_in_the_fallback_folder(tmp_path):
    """The output folder is a file: the transcript goes to the private fallback folder, whose
    names add the run's time; a name at the limit is shortened there too (it was printed on
    stdout instead)."""
    source = media(tmp_path / "in", long_name("a", ".wav", name_max(tmp_path)))
    not_a_folder, data = tmp_path / "out.txt", tmp_path / "data"
    not_a_folder.write_text("not a folder")
    result = run(str(source), "--output-dir", str(not_a_folder), "--format", "txt", data_dir=data)
    assert result.returncode == 1, result.stderr
    assert result.stdout == "" and "Traceback" not in result.stderr
    kept = list((data / "unsaved-transcripts").iterdir())
    assert len(kept) == 1 and re.search(r"~[0-9a-f]{8}-\d{8}-\d{6}\.txt$", kept[0].name), kept
    assert f"the transcript was kept in {kept[0]}" in result.stderr
    check_transcript(kept[0])


def test_a_folder_of_long_names_that_differ_only_at_their_ends_is_transcribed_and_then_done(tmp_path):
    """Two 255-byte names that differ in their last character before `.wav`: the shortened
    `.json` names stay distinct, the manifest records the names written, and a second run of the
    same command finds both done and rewrites nothing."""
    limit = name_max(tmp_path)
    archive, out, data = tmp_path / "in", tmp_path / "out", tmp_path / "data"
    first_name, second_name = (long_name(TITLE, ".wav", limit, end=end) for end in ("1", "2"))
    media(archive, first_name)
    media(archive, second_name)
    command = (str(archive), "--output-dir", str(out), "--format", "txt", "--format", "json", "--jobs", "1")
    first = run(*command, data_dir=data)
    assert first.returncode == 0, first.stderr
    assert summary_counts(first.stderr) == (2, 0, 0)
    assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]
    written = sorted(p.name for p in out.iterdir() if p.name != MANIFEST and not p.name.startswith("."))
    assert len(written) == 4 and len({Path(n).stem for n in written if n.endswith(".json")}) == 2, written
    for name in (first_name, second_name):
        assert (out / f"{Path(name).stem}.txt").is_file()
    assert len(shortened_lines(first.stderr)) == 2, first.stderr
    records = [json.loads(line) for line in (out / MANIFEST).read_text(encoding="utf-8").splitlines()]
    assert sorted(name for r in records for name in r["outputs"]) == written
    for name in written:
        check_transcript(out / name)
    before = {name: (out / name).stat().st_mtime_ns for name in written}

    second = run(*command, data_dir=data)
    assert second.returncode == 0, second.stderr
    assert summary_counts(second.stderr) == (0, 2, 0)
    assert "2 of 2 inputs skipped: already done" in second.stderr
    assert {name: (out / name).stat().st_mtime_ns for name in written} == before  # nothing rewritten
    assert not shortened_lines(second.stderr) and "wrote " not in second.stderr
    assert not (data / "unsaved-transcripts").exists()


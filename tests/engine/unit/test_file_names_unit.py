"""Transcript names that fit the file system (app/engine/export/file_names.py): a name that fits
is left as it is; a longer one is cut at a character and marked with a hash of the whole stem,
so two long names stay distinct and a rerun gives the same name. Real files in `tmp_path`."""

from __future__ import annotations

import os
from pathlib import Path

from app.engine.export.file_names import fitted_stem, name_length, name_max, shortened_line, stems_for, temporary_name
from app.engine.export.formats import TranscriptMeta, write_transcript
from app.engine.types import Segment, Timings

JAPANESE = "【ポッドキャスト】第12回 東京の朝、静かな会議室で話したこと " * 4
"""About 320 bytes of UTF-8: 3 bytes a Japanese character, 1 an ASCII one."""


def test_a_name_that_fits_is_left_as_it_is() -> None:
    assert fitted_stem("talk", ".txt", 255) == "talk"
    assert fitted_stem("a" * 251, ".txt", 255) == "a" * 251  # 255 bytes: exactly the limit
    assert fitted_stem("会議" * 41, ".json", 255) == "会議" * 41  # 246 + 5 bytes


def test_a_longer_name_is_cut_at_a_character_and_marked_with_a_hash_of_the_stem(tmp_path: Path) -> None:
    limit = name_max(tmp_path)
    short = fitted_stem(JAPANESE, ".json", limit)
    kept, mark = short[:-9], short[-9:]
    assert JAPANESE.startswith(kept) and mark[0] == "~" and all(c in "0123456789abcdef" for c in mark[1:])
    assert name_length(short + ".json") <= limit
    assert name_length(JAPANESE[: len(kept) + 1] + mark + ".json") > limit  # as much of the title as fits
    assert os.fsencode(short).decode("utf-8") == short  # whole characters only
    (tmp_path / f"{short}.json").write_text("{}", encoding="utf-8")  # the file system takes it


def test_long_names_that_differ_only_at_their_ends_stay_distinct_and_a_rerun_gives_the_same() -> None:
    first, second = "a" * 300 + "1", "a" * 300 + "2"
    assert fitted_stem(first, ".txt", 255) != fitted_stem(second, ".txt", 255)
    assert fitted_stem(first, ".txt", 255)[:-9] == fitted_stem(second, ".txt", 255)[:-9]
    assert fitted_stem(first, ".txt", 255) == fitted_stem(first, ".txt", 255)
    assert fitted_stem(first, ".txt", 255) == "a" * 242 + "~" + fitted_stem(first, ".txt", 255)[-8:]


def test_the_limit_is_that_of_the_folders_file_system(tmp_path: Path) -> None:
    assert name_max(tmp_path) == os.pathconf(tmp_path, "PC_NAME_MAX")
    assert name_max(tmp_path / "not" / "made" / "yet") == name_max(tmp_path)  # the nearest folder that exists


def test_only_the_formats_whose_names_do_not_fit_are_shortened_and_they_share_one_name() -> None:
    stem = "a" * 251
    stems = stems_for(Path("/"), stem, [".txt", ".srt", ".json"])
    assert stems[:2] == [stem, stem] and stems[2] == fitted_stem(stem, ".json", name_max(Path("/")))
    assert shortened_line("x.wav", stem, stems, [".txt", ".srt", ".json"]) == (
        f"x.wav: name too long for this file system; its transcript is written as {stems[2]}.json"
    )
    longer = stems_for(Path("/"), stem + "b", [".txt", ".json"])
    assert longer[0] == longer[1] != stem + "b"
    assert shortened_line("x", stem + "b", longer, [".txt", ".json"]).endswith(f"written as {longer[0]}.<format>")
    assert shortened_line("x.wav", "talk", ["talk", "talk"], [".txt", ".json"]) == ""


def test_a_temporary_file_beside_a_name_at_the_limit_fits_too(tmp_path: Path) -> None:
    short, long = tmp_path / "talk.txt", tmp_path / ("a" * 251 + ".txt")
    assert temporary_name(short, "0123abcd") == ".talk.txt.0123abcd.tmp"  # as before
    assert temporary_name(long, "0123abcd") == ".earshot-0123abcd.tmp"
    long.write_text("x")
    (tmp_path / temporary_name(long, "0123abcd")).write_text("x")


def test_a_transcript_whose_name_is_exactly_at_the_limit_is_written_with_nothing_left_beside_it(tmp_path: Path) -> None:
    stem = "a" * (name_max(tmp_path) - 4)
    meta = TranscriptMeta("x.wav", "tiny.en", "fp32", "en", 1.0, 1.5, Timings())
    path = write_transcript("txt", [Segment(0, 0.0, 1.5, " Hello there.")], meta, tmp_path, stem)
    assert path.name == f"{stem}.txt" and path.read_text(encoding="utf-8") == "Hello there.\n"
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # the temporary file is gone

"""Watched media files whose names are at the file system's limit: their transcript files and
their claims are made beside them with names that fit, twins (`x.wav` and `x.mp3`) keep distinct
transcripts, and the look for transcripts written finds them. The watch folder's own code on real
files, without the window; the transcript is a made-up one (no model is run)."""

from __future__ import annotations

import os
from pathlib import Path

from app.archive.watch_claims import Holder, WatchClaims
from app.composition import FormatsExporter
from app.controller.ports import FileTranscript
from app.controller.watch_outputs import transcripts_written_since, write_transcript_files
from app.engine.types import Segment
from app.settings.schema import WatchFolder

TITLE = "【ライブ配信】東京の朝、静かな会議室で話したこと "


def stem_of(size: int) -> str:
    """A Japanese title of exactly `size` bytes (UTF-8), padded with `_`."""
    stem = ""
    while len(os.fsencode(stem + TITLE[len(stem) % len(TITLE)])) <= size:
        stem += TITLE[len(stem) % len(TITLE)]
    return stem + "_" * (size - len(os.fsencode(stem)))


def transcript(media: Path, text: str) -> FileTranscript:
    return FileTranscript(media, [Segment(0, 0.0, 1.5, f" {text}")], "en", 2.0, "tiny.en", "fp32")


def test_watched_twins_whose_names_are_at_the_limit_each_get_their_transcript_files(tmp_path: Path) -> None:
    """`x.wav` and `x.mp3` of 255 bytes: each one's transcripts are named after the whole media
    name (`x.wav.txt`, 259 bytes), so they are shortened, differently for each, said in one line."""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    stem = stem_of(os.pathconf(inbox, "PC_NAME_MAX") - 4)
    twins = {inbox / f"{stem}.wav": "The wave file speaks.", inbox / f"{stem}.mp3": "The mp3 file speaks."}
    for media in twins:
        media.write_bytes(b"media")
    watch = WatchFolder(str(inbox), ["txt", "srt"], "")
    written: list[Path] = []
    for media, text in twins.items():
        result = write_transcript_files(FormatsExporter(), watch, transcript(media, text))
        assert result.problem == "" and len(result.written) == 2, result
        short = result.written[0].stem
        assert [p.name for p in result.written] == [f"{short}.txt", f"{short}.srt"]
        assert result.renamed == (
            f"{media.name}: name too long for this file system; its transcript is written as {short}.<format>"
        )
        assert (inbox / f"{short}.txt").read_text(encoding="utf-8").strip() == text
        assert transcripts_written_since(watch, media, media.stat().st_mtime)
        written += result.written
    assert len(set(written)) == 4
    assert sorted(p.name for p in inbox.iterdir()) == sorted([*(m.name for m in twins), *(p.name for p in written)])


def test_a_watched_file_whose_name_fits_keeps_its_transcript_name(tmp_path: Path) -> None:
    media = tmp_path / f"{stem_of(os.pathconf(tmp_path, 'PC_NAME_MAX') - 4)}.wav"
    media.write_bytes(b"media")
    watch = WatchFolder(str(tmp_path), ["txt"], "")
    result = write_transcript_files(FormatsExporter(), watch, transcript(media, "Hi."))
    assert result.written == [media.with_suffix(".txt")] and result.renamed == "" and result.problem == ""


def test_a_watched_file_whose_name_is_at_the_limit_is_claimed(tmp_path: Path) -> None:
    """The claim (`.<media name>.earshot-claim`) would pass the limit: it is shortened, so the file
    is held against another app as any other (before, it was transcribed without a claim)."""
    media = tmp_path / f"{stem_of(os.pathconf(tmp_path, 'PC_NAME_MAX') - 4)}.wav"
    media.write_bytes(b"media")
    mine, theirs = WatchClaims(holder=Holder("here", os.getpid())), WatchClaims(holder=Holder("there", 1))
    assert mine.take(media, tmp_path)
    assert media in mine.held and mine.held[media].is_file() and mine.held[media].name.startswith(".")
    assert not theirs.take(media, tmp_path)  # another live holder has it
    mine.release(media)
    assert theirs.take(media, tmp_path)

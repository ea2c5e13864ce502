"""What a drop queues: files as given, folders searched for audio and video files."""

from __future__ import annotations

from pathlib import Path

from app.controller.jobs import expand_paths


def test_folders_expand_to_their_media_files(tmp_path: Path) -> None:
    folder = tmp_path / "interviews"
    (folder / "day 2").mkdir(parents=True)
    for name in ("b.MP3", "a.wav", "notes.txt", "day 2/c.mkv", "day 2/cover.jpg", ".hidden.m4a"):
        (folder / name).write_bytes(b"x")
    loose = tmp_path / "memo.unknown-extension"
    loose.write_bytes(b"x")

    found = expand_paths([loose, folder])

    assert [p.relative_to(tmp_path).as_posix() for p in found] == [
        "memo.unknown-extension",  # a file dropped by itself is always tried
        "interviews/a.wav",
        "interviews/b.MP3",
        "interviews/day 2/c.mkv",
    ]

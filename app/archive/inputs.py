"""The inputs of an archive run: files as given, and media files found in folders.

Each input has an output stem relative to the output folder: a file given by name keeps its
own stem (`x.wav` -> `x`); a file found in folder `D` mirrors its place in `D`
(`D/a/b/x.wav` -> `a/b/x`). Two inputs with the same stem (`x.wav` and `x.mp3`, or the same
tree given twice) get distinct stems, in listing order: `x`, `x-2`, ...
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

MEDIA_SUFFIXES = frozenset(
    {
        ".wav",
        ".flac",
        ".mp3",
        ".m4a",
        ".aac",
        ".ogg",
        ".oga",
        ".opus",
        ".wma",
        ".aiff",
        ".aif",
        ".caf",
        ".mp4",
        ".m4v",
        ".mkv",
        ".mov",
        ".webm",
        ".avi",
        ".wmv",
        ".mpg",
        ".mpeg",
        ".3gp",
        ".amr",
    }
)
"""What a folder listing picks up (case-insensitive); files named one by one are always taken."""


@dataclass(frozen=True)
class ArchiveInput:
    """One file to transcribe. `stem`: its output path without a suffix, '/'-separated."""

    source: Path
    stem: str


class InputError(ValueError):
    """An argument that is neither a readable file nor a folder; `str(error)` is one line."""


def list_inputs(names: Sequence[str], recursive: bool) -> tuple[list[ArchiveInput], list[str]]:
    """`names` (files and folders) -> (inputs in a stable order, one-line problems).

    A folder gives its media files (sorted by path; with `recursive`, those in every
    sub-folder too; hidden files and folders are left out). A name that does not exist is a
    problem, not an exception, so the other inputs still run.
    """
    found: list[tuple[Path, PurePosixPath]] = []
    problems: list[str] = []
    for name in names:
        path = Path(name)
        if path.is_dir():
            found.extend((file, PurePosixPath(*file.relative_to(path).parts)) for file in _media_in(path, recursive))
        elif path.exists():
            found.append((path, PurePosixPath(path.name)))
        else:
            problems.append(f"{name}: no such file or folder")
    return _with_distinct_stems(found), problems


def _media_in(folder: Path, recursive: bool) -> list[Path]:
    files: list[Path] = []
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".")) if recursive else []
        files.extend(
            Path(root) / n for n in names if not n.startswith(".") and Path(n).suffix.lower() in MEDIA_SUFFIXES
        )
    return sorted(files)


def _with_distinct_stems(found: Iterable[tuple[Path, PurePosixPath]]) -> list[ArchiveInput]:
    used: set[str] = set()
    inputs = []
    for source, relative in found:
        base = str(relative.with_suffix(""))
        stem, number = base, 1
        while stem.casefold() in used:  # case-insensitive: Windows and macOS file systems
            number += 1
            stem = f"{base}-{number}"
        used.add(stem.casefold())
        inputs.append(ArchiveInput(source, stem))
    return inputs

"""File names made from a user's file name that fit the file system: a transcript of a media file
whose own name is near the limit (long podcast and video titles, often in Japanese or with emoji).

A file system limits a name's length (NAME_MAX: 255 bytes on ext4, XFS, Btrfs and APFS; 143 on
eCryptfs). Lengths here are in bytes of the name as the file system stores it (`os.fsencode`),
except on Windows, which counts UTF-16 code units. `x.mp3` of 255 bytes gives `x.json` of 256,
and `.x.json.<hex>.tmp` is longer still. A name that fits is left as it is; a longer one keeps as
much of its stem as fits, cut at a character, then `~` and 8 hex digits of a hash of the whole
stem: two long names that differ only at their ends stay distinct, and a rerun gives the same name.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from pathlib import Path

DEFAULT_NAME_MAX = 255
"""Bytes, where the file system does not say (Windows, or no folder to ask)."""
MARK = "~"
HASH_DIGITS = 8


def name_length(name: str) -> int:
    """`name`'s length as its file system counts it: bytes of `os.fsencode` (on Windows, UTF-16
    code units)."""
    if os.name == "nt":
        return len(name.encode("utf-16-le", "surrogatepass")) // 2
    return len(os.fsencode(name))


def name_max(folder: Path) -> int:
    """The longest name a file in `folder` may have, in bytes: the file system's NAME_MAX, asked of
    `folder` or, for a folder not made yet, of the nearest one above it that exists;
    DEFAULT_NAME_MAX where the system does not say."""
    pathconf = getattr(os, "pathconf", None)
    if pathconf is None:
        return DEFAULT_NAME_MAX
    for place in (folder, *folder.parents):
        try:
            limit = pathconf(place, "PC_NAME_MAX")
        except FileNotFoundError:
            continue
        except (OSError, ValueError):
            return DEFAULT_NAME_MAX
        return limit if isinstance(limit, int) and limit > 0 else DEFAULT_NAME_MAX
    return DEFAULT_NAME_MAX


def fitted_stem(stem: str, suffix: str, limit: int) -> str:
    """The stem to write `<stem><suffix>` as in a folder whose names may have `limit` bytes:
    `stem` itself when the name fits; otherwise the longest start of `stem` that fits (whole
    characters) followed by `~` and 8 hex digits of the SHA-256 of the whole `stem`. `suffix` (a
    format's `.txt`, or `-2.txt`) is kept whole. Where not even the mark fits, the name is left
    too long: writing it then says so."""
    if name_length(stem + suffix) <= limit:
        return stem
    digest = hashlib.sha256(stem.encode("utf-8", "surrogatepass")).hexdigest()[:HASH_DIGITS]
    mark = MARK + digest
    budget = limit - name_length(mark + suffix)
    kept, used = 0, 0
    for char in stem:
        used += name_length(char)
        if used > budget:
            break
        kept += 1
    return stem[:kept] + mark


def fitted_name(stem: str, suffix: str, limit: int) -> str:
    """`<stem><suffix>` with the stem that `fitted_stem` gives (the whole name within `limit` bytes)."""
    return fitted_stem(stem, suffix, limit) + suffix


def stems_for(folder: Path, stem: str, suffixes: Sequence[str]) -> list[str]:
    """The stem each of `suffixes` is written with in `folder`: `stem` where `<stem><suffix>` fits;
    the others share one shortened stem (fitted to the longest of them), so the transcripts of
    one input that had to be shortened still share a name."""
    limit = name_max(folder)
    over = [suffix for suffix in suffixes if name_length(stem + suffix) > limit]
    if not over:
        return [stem for _suffix in suffixes]
    short = fitted_stem(stem, max(over, key=name_length), limit)
    return [short if suffix in over else stem for suffix in suffixes]


def shortened_line(source: str, stem: str, stems: Sequence[str], suffixes: Sequence[str]) -> str:
    """One line for the user when any of `stems` (from `stems_for`) is not `stem`, else "":
    `<source>: name too long for this file system; its transcript is written as <name>` (the
    name as `<short stem>.<format>` when several formats were shortened)."""
    shortened = [(written, suffix) for written, suffix in zip(stems, suffixes, strict=True) if written != stem]
    if not shortened:
        return ""
    short, suffix = shortened[0]
    name = short + suffix if len(shortened) == 1 else f"{short}.<format>"
    return f"{source}: name too long for this file system; its transcript is written as {name}"


def temporary_name(target: Path, tag: str) -> str:
    """A hidden name for the temporary file that then replaces `target`, in `target`'s folder:
    `.<target name>.<tag>.tmp`, or `.earshot-<tag>.tmp` where that would pass the folder's limit
    (in bytes). `tag` (random hex) keeps two writers apart."""
    named = f".{target.name}.{tag}.tmp"
    return named if name_length(named) <= name_max(target.parent) else f".earshot-{tag}.tmp"

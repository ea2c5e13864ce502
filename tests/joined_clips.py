"""Long files made of the shared English clips joined end to end, each followed by 1 s of
silence, in several orders: a long file whose every phrase is known, to check that decoding it
in 30 s windows loses and repeats nothing against the clips decoded alone. The recordings are
read from ../shared (never copied into the repository). Import as `joined_clips`."""

from __future__ import annotations

import csv
import difflib
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

RATE = 16_000
GAP_S = 1.0
SHORT_S = 30.0
"""Clips up to this long are joined: a longer one is a long file of its own."""


@dataclass(frozen=True)
class Clip:
    name: str
    text: str
    audio: np.ndarray  # [n] float32 16 kHz


def english_clips(folder: Path) -> list[Clip]:
    """The English clips of `folder` (a shared speech set with a manifest.csv) of at most
    SHORT_S seconds, in manifest order; [] when the folder is absent."""
    from earshot_testing import read_wav

    manifest = folder / "manifest.csv"
    if not manifest.is_file():
        return []
    with manifest.open(encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader(handle) if r["language"] == "en" and float(r["duration_s"]) <= SHORT_S]
    return [Clip(r["clip_id"], r["reference_text"], read_wav(folder / f"{r['clip_id']}.wav")) for r in rows]


def orders(n: int) -> dict[str, list[int]]:
    """Clip indices for each order of joining: forward then reverse, forward then a seeded
    shuffle, and a seeded shuffle then another."""
    rng = np.random.default_rng(36)
    forward = list(range(n))
    return {
        "forward+reverse": forward + forward[::-1],
        "forward+shuffle": forward + [int(i) for i in rng.permutation(n)],
        "shuffle+shuffle": [int(i) for i in rng.permutation(n)] + [int(i) for i in rng.permutation(n)],
    }


def joined(clips: list[Clip], order: list[int]) -> tuple[np.ndarray, list[str]]:
    """The clips of `order` joined, each followed by GAP_S of digital silence: audio [n] float32
    16 kHz and the reference texts in that order."""
    gap = np.zeros(int(GAP_S * RATE), dtype=np.float32)
    pieces = [piece for i in order for piece in (clips[i].audio, gap)]
    return np.concatenate(pieces), [clips[i].text for i in order]


_NUMBERS = {w: str(i) for i, w in enumerate(
    ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"])}


def words(text: str) -> list[str]:
    """Lower-case words without punctuation, number words as digits. (Whisper's English
    normaliser turns "1, 2, 3" into "one 2 3" and "One, two, three" into "123": a clip said the
    same way twice would differ by a run of words.)"""
    return [_NUMBERS.get(w, w) for w in re.findall(r"[a-z0-9']+", text.lower().replace("-", " "))]


def changed_runs(expected: str, heard: str) -> list[tuple[list[str], list[str]]]:
    """Where `heard` differs from `expected` (as `words`): each run of consecutive words
    (lost, added) in their alignment."""
    a, b = words(expected), words(heard)
    return [(a[i:j], b[k:m]) for tag, i, j, k, m in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes()
            if tag != "equal"]


def longest_change(expected: str, heard: str) -> int:
    """The most consecutive words `heard` lost or added against `expected`."""
    return max((max(len(lost), len(added)) for lost, added in changed_runs(expected, heard)), default=0)

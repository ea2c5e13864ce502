"""Word handling for the streaming policy: splitting, normalising, aligning, and WER."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

_PUNCT = re.compile(r"[^\w\s']|_")
_SPACES = re.compile(r"\s+")
# Text Whisper emits for non-speech that must never be committed as dictation.
_NON_SPEECH = re.compile(r"\[[^\]]*\]|\([^)]*\)|[♪♫♬*]")


@dataclass(frozen=True)
class Word:
    """One word of a hypothesis. `text` keeps Whisper's leading space and punctuation;
    `start`/`end` are estimated absolute times in seconds of session audio."""

    text: str
    start: float
    end: float

    @property
    def norm(self) -> str:
        return normalize_word(self.text)


def normalize_word(word: str) -> str:
    """Lower-case, no punctuation: the form two hypotheses are compared in."""
    return _PUNCT.sub("", word).strip().lower().replace("'", "")


def normalize_text(text: str) -> list[str]:
    """Words of `text` for WER: lower-case, punctuation dropped, hyphens split."""
    text = _PUNCT.sub(" ", text.replace("-", " ")).lower().replace("'", "")
    return [w for w in _SPACES.split(text) if w]


def strip_non_speech(text: str) -> str:
    """Remove bracketed annotations like "[Music]", "(laughs)" and music notes."""
    return _NON_SPEECH.sub("", text)


def split_words(text: str, start: float, end: float) -> list[Word]:
    """Split a segment's text into words with times interpolated by character position."""
    pieces = re.findall(r"\s*\S+", strip_non_speech(text))
    pieces = [p for p in pieces if normalize_word(p)]
    total = sum(len(p) for p in pieces) or 1
    words, pos = [], 0
    span = max(0.0, end - start)
    for piece in pieces:
        w_start = start + span * pos / total
        pos += len(piece)
        words.append(Word(piece, w_start, start + span * pos / total))
    return words


def common_prefix(a: Sequence[Word], b: Sequence[Word]) -> int:
    """Length of the longest prefix on which `a` and `b` agree (normalised words)."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x.norm != y.norm:
            break
        n += 1
    return n


def align_committed(hypothesis: Sequence[Word], committed: Sequence[Word]) -> int:
    """Index in `hypothesis` where text not yet committed begins.

    `committed` are the words already committed from the current window; a fresh decode of the
    same window normally repeats them first, maybe with small differences. We match them against
    the head of the hypothesis and skip past the last matched word.
    """
    if not committed:
        return 0
    ref = [w.norm for w in committed]
    head = [w.norm for w in hypothesis[: len(ref) + 4]]
    if head[: len(ref)] == ref:
        return len(ref)
    matcher = SequenceMatcher(None, ref, head, autojunk=False)
    blocks = [b for b in matcher.get_matching_blocks() if b.size]
    if not blocks:
        return min(len(ref), len(hypothesis))
    last = blocks[-1]
    unmatched_tail = len(ref) - (last.a + last.size)
    return min(len(hypothesis), last.b + last.size + unmatched_tail)


def join_words(words: Sequence[Word]) -> str:
    """Concatenate words into text (words carry their own leading spaces)."""
    return "".join(w.text for w in words)


def word_error_rate(reference: str, hypothesis: str) -> float:
    """Word error rate in percent (edit distance / reference words) after `normalize_text`."""
    ref, hyp = normalize_text(reference), normalize_text(hypothesis)
    if not ref:
        return 0.0 if not hyp else 100.0
    prev = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        cur = [i] + [0] * len(hyp)
        for j, h in enumerate(hyp, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (r != h))
        prev = cur
    return 100.0 * prev[-1] / len(ref)

"""Word handling for the streaming policy: splitting, normalising, aligning."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

_PUNCT = re.compile(r"[^\w\s']|_")
# Text Whisper emits for non-speech that must never be committed as dictation.
FILLERS = frozenset({"um", "uh", "umm", "uhm", "hmm", "mm", "er", "ah", "oh"})
_NON_SPEECH = re.compile(r"\[[^\]]*\]|\([^)]*\)|[♪♫♬*]")


@dataclass(frozen=True)
class HypothesisWord:
    """One word of a hypothesis. `text` keeps Whisper's leading space and punctuation;
    `start`/`end` are estimated absolute times in seconds of session audio; `probability` the
    decoder's (mean over the word's tokens, lowest over the timed pieces it spans), 1.0 where
    the decode did not time words."""

    text: str
    start: float
    end: float
    probability: float = 1.0

    @property
    def norm(self) -> str:
        return normalize_word(self.text)


def normalize_word(word: str) -> str:
    """Lower-case, no punctuation: the form two hypotheses are compared in."""
    return _PUNCT.sub("", word).strip().lower().replace("'", "")


def strip_non_speech(text: str) -> str:
    """Remove bracketed annotations like "[Music]", "(laughs)" and music notes."""
    return _NON_SPEECH.sub("", text)


def split_words(text: str, start: float, end: float) -> list[HypothesisWord]:
    """Split a segment's text into words with times interpolated by character position."""
    pieces = re.findall(r"\s*\S+", strip_non_speech(text))
    pieces = [p for p in pieces if normalize_word(p)]
    total = sum(len(p) for p in pieces) or 1
    words, pos = [], 0
    span = max(0.0, end - start)
    for piece in pieces:
        w_start = start + span * pos / total
        pos += len(piece)
        words.append(HypothesisWord(piece, w_start, start + span * pos / total))
    return words


def timed_words(
    text: str, timed: Sequence[tuple[str, float, float]], start: float, end: float, probabilities: Sequence[float] = ()
) -> list[HypothesisWord]:
    """`split_words(text, start, end)` with each word's times taken from `timed`, the same text
    as (word, start s, end s) pieces that the cross-attention aligner timed (their split may
    differ: "well-known" is one word here, three pieces there). Letters are matched in order,
    so the words (and LocalAgreement) are the same with and without times; where the letters
    do not match up, the interpolated times stay. `probabilities`: one per piece of `timed`
    (empty: all 1.0); a word gets the lowest of the pieces its letters are in."""
    words = split_words(text, start, end)
    letter_times = _letter_times(timed)
    counts = [sum(1 for c in w.text if _is_letter(c)) for w in words]
    if sum(counts) != len(letter_times):
        return words
    out, pos = [], 0
    for word, n in zip(words, counts, strict=True):
        letters = letter_times[pos : pos + n]
        prob = min(probabilities[i] for _, _, i in letters) if probabilities else 1.0
        out.append(HypothesisWord(word.text, letters[0][0], letters[-1][1], prob))
        pos += n
    return out


def _is_letter(c: str) -> bool:
    """A character `normalize_word` keeps."""
    return not c.isspace() and c != "'" and _PUNCT.match(c) is None


def _letter_times(timed: Sequence[tuple[str, float, float]]) -> list[tuple[float, float, int]]:
    """(start, end, piece index) of the piece each kept letter of the joined, non-speech-stripped
    text is in."""
    text = "".join(piece for piece, _, _ in timed)
    spans = [(s, e, i) for i, (piece, s, e) in enumerate(timed) for _ in piece]
    removed = [False] * len(text)
    for match in _NON_SPEECH.finditer(text):
        removed[match.start() : match.end()] = [True] * (match.end() - match.start())
    return [spans[i] for i, c in enumerate(text) if not removed[i] and _is_letter(c)]


def common_prefix(a: Sequence[HypothesisWord], b: Sequence[HypothesisWord]) -> int:
    """Length of the longest prefix on which `a` and `b` agree (normalised words)."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x.norm != y.norm:
            break
        n += 1
    return n


def align_committed(hypothesis: Sequence[HypothesisWord], committed: Sequence[HypothesisWord]) -> int:
    """Index in `hypothesis` where text not yet committed begins.

    `committed` are the words already committed from the current window; a fresh decode of the
    same window normally repeats them first, maybe with small differences. We match them against
    the head of the hypothesis, ignoring fillers ("um", "uh": Whisper keeps them in one decode
    and drops them in the next), and skip as many hypothesis words as the committed words span:
    past the last matched word plus one per unmatched committed word after it (a substitution),
    and past words centred within the last committed word's time, one per unmatched word at most.
    A hypothesis that matches under half of them is cut by the words' times (`_first_after`).
    """
    ref = [w.norm for w in committed if w.norm not in FILLERS]
    if not ref:
        return _skip_fillers(hypothesis, 0)
    positions = [i for i, w in enumerate(hypothesis[: len(committed) + 4]) if w.norm not in FILLERS]
    head = [hypothesis[i].norm for i in positions]
    if head[: len(ref)] == ref:
        return _skip_fillers(hypothesis, positions[len(ref) - 1] + 1)
    matcher = SequenceMatcher(None, ref, head, autojunk=False)
    blocks = [b for b in matcher.get_matching_blocks() if b.size]
    if sum(b.size for b in blocks) * 2 < len(ref):  # no real match: go by the words' times
        return _skip_fillers(hypothesis, _first_after(hypothesis, committed[-1].end))
    last = blocks[-1]
    unmatched = len(ref) - (last.a + last.size)
    j = last.b + last.size + unmatched  # index into `head`
    k = positions[j - 1] + 1 if j <= len(positions) else len(hypothesis)
    if unmatched:
        # a committed word the decode rewrote as more words ("my" as "am I"): the words heard
        # within its time are that word, one more per rewritten word at most (times can be late)
        k = min(max(k, _first_after(hypothesis, committed[-1].end)), k + unmatched)
    return _skip_fillers(hypothesis, min(k, len(hypothesis)))


def _first_after(hypothesis: Sequence[HypothesisWord], end_s: float) -> int:
    """Index of the first word centred after `end_s` (s). When a decode does not repeat the
    committed words (a trim moved the window start past most of their audio), skipping one
    hypothesis word per committed word would skip new words instead: with "quarter and plan the
    new website" committed, "I need $300 for the new" would be lost whole from the next decode."""
    return next((i for i, w in enumerate(hypothesis) if (w.start + w.end) / 2 > end_s), len(hypothesis))


def _skip_fillers(hypothesis: Sequence[HypothesisWord], k: int) -> int:
    while k < len(hypothesis) and hypothesis[k].norm in FILLERS:
        k += 1
    return k


def join_words(words: Sequence[HypothesisWord]) -> str:
    """Concatenate words into text (words carry their own leading spaces)."""
    return "".join(w.text for w in words)


_TRAILING_MARK = re.compile(r"[.,?!;:]+$")
END_MARKS = (".", "?", "!")


def split_trailing_mark(text: str) -> tuple[str, str]:
    """ "Americans." -> ("Americans", "."); a word without a final mark -> (text, "")."""
    match = _TRAILING_MARK.search(text)
    if match is None or not normalize_word(text[: match.start()]):
        return text, ""
    return text[: match.start()], match.group()


def capitalise(text: str) -> str:
    """The word (with its leading space) starting upper-case."""
    stripped = text.lstrip()
    if not stripped[:1].islower():
        return text
    return text[: len(text) - len(stripped)] + stripped[0].upper() + stripped[1:]


def capitalise_sentence_starts(words: list[HypothesisWord]) -> list[HypothesisWord]:
    """Words after end punctuation start upper-case (Whisper, continuing a fragment it heard
    after a pause, sometimes writes "you. ask what")."""
    out = list(words[:1])
    for prev, word in itertools.pairwise(words):
        if prev.text.rstrip().endswith(END_MARKS) and not prev.text.rstrip().endswith(".."):
            word = HypothesisWord(capitalise(word.text), word.start, word.end)
        out.append(word)
    return out

"""Readable subtitle cues from timed words: which words share a cue, and where its line breaks.

The words are cut into cues by dynamic programming over the cut points: every cue fits its
limits (`max_line_count` lines of `max_line_width` characters, `max_duration_s` from its first
word's start to its last word's end, no long pause inside), and the cuts cost least where a
sentence ends, then at clause marks, then before a joining word, then at any word gap; a pause
makes any cut cheaper. Cues of even length are preferred over a full cue and a scrap. Inside a
cue the text stays on one line while it fits; otherwise it is broken where a clause ends and
the lines are balanced, the top one a little shorter (a bottom-heavy pyramid), as Netflix's
and the BBC's subtitle guidelines ask.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from app.engine.export.cue_text import one_line
from app.engine.types import Word

SENTENCE_ENDS = (".", "!", "?", "…", "。", "！", "？")
CLAUSE_ENDS = (",", ";", ":", "–", "—", "-", "，", "；", "：", "、")
CLOSERS = "\"'”’»)]}"
ABBREVIATIONS = frozenset(
    {"mr.", "mrs.", "ms.", "dr.", "st.", "prof.", "jr.", "sr.", "vs.", "etc.", "e.g.", "i.e.", "no.", "mt."}
)
"""Words whose period ends no sentence."""
JOINING_WORDS = frozenset(
    {
        "and",
        "but",
        "or",
        "nor",
        "so",
        "yet",
        "because",
        "although",
        "though",
        "while",
        "whereas",
        "which",
        "who",
        "whom",
        "whose",
        "that",
        "when",
        "where",
        "if",
        "unless",
        "until",
        "since",
        "as",
        "than",
        "then",
        "whether",
    }
)
"""English words a line or cue may start with when no mark is near (a cut before them reads well)."""

LONG_PAUSE_S = 2.0
"""A gap between words this long is never inside a cue: the text would stay up through the silence."""
CUE_COST = 1.0
"""What one more cue costs: fewer, fuller cues unless a better cut is near."""


@dataclass(frozen=True)
class Limits:
    """`width`: characters per line (None: any); `lines`: lines per cue (None: any);
    `duration_s`: seconds from a cue's first word's start to its last word's end."""

    width: int | None
    lines: int | None
    duration_s: float


@dataclass
class Cue:
    """Lines of words shown together from `start` to `end` (seconds)."""

    lines: list[list[Word]]
    start: float
    end: float

    @property
    def words(self) -> list[Word]:
        return [w for line in self.lines for w in line]


def line_text(line: Sequence[Word]) -> str:
    return one_line("".join(w.word for w in line))


def ends_sentence(word: str) -> bool:
    """The word closes a sentence ("done.", "why?\"", not "Mr.")."""
    text = word.rstrip(CLOSERS)
    return text.endswith(SENTENCE_ENDS) and text.lower() not in ABBREVIATIONS


def break_cost(words: Sequence[Word], index: int) -> float:
    """What a cut after `words[index]` costs: 0 at a sentence end or the last word, 1 at a clause
    mark, 2 before a joining word, 4 elsewhere; a pause after the word takes off up to half
    (all of it from a second on)."""
    if index >= len(words) - 1:
        return 0.0
    text = one_line(words[index].word).rstrip(CLOSERS)
    if ends_sentence(text):
        base = 0.0
    elif text.endswith(CLAUSE_ENDS):
        base = 1.0
    elif one_line(words[index + 1].word).lower() in JOINING_WORDS:
        base = 2.0
    else:
        base = 4.0
    pause = max(0.0, words[index + 1].start - words[index].end)
    return base * (1.0 - 0.5 * min(pause, 1.0))


class _Widths:
    """Line lengths in characters of any run of words, from prefix sums (words keep their
    leading space, which a line's first word drops), and where sentences end."""

    def __init__(self, words: Sequence[Word]) -> None:
        self.prefix = [0]
        self.spaced = [w.word[:1].isspace() for w in words]
        self.sentence_ends = [0]  # prefix counts of words that end a sentence
        for word in words:
            self.prefix.append(self.prefix[-1] + len(one_line(word.word)) + (1 if word.word[:1].isspace() else 0))
            self.sentence_ends.append(self.sentence_ends[-1] + ends_sentence(one_line(word.word)))

    def line(self, start: int, stop: int) -> int:
        """Characters of words[start:stop] on one line."""
        return self.prefix[stop] - self.prefix[start] - (1 if self.spaced[start] else 0)


def layout_cues(words: Sequence[Word], limits: Limits) -> list[Cue]:
    """`words` (in time order, none empty) as cues within `limits`, cut where they read best.

    A word longer than a line or than `limits.duration_s` gets a cue of its own."""
    if not words:
        return []
    widths = _Widths(words)
    cuts = _best_cuts(words, widths, limits)
    cues = []
    for start, stop in itertools.pairwise(cuts):
        lines = _lines(words, widths, start, stop, limits)
        cues.append(Cue(lines, words[start].start, max(words[stop - 1].end, words[start].start)))
    return cues


def _best_cuts(words: Sequence[Word], widths: _Widths, limits: Limits) -> list[int]:
    """Indexes where cues begin, and len(words): the cheapest cutting into cues that fit."""
    n = len(words)
    cost = [0.0] + [math.inf] * n
    back = [0] * (n + 1)
    for start in range(n):
        if cost[start] == math.inf:
            continue
        for stop in range(start + 1, n + 1):
            if stop > start + 1 and not _fits(words, widths, start, stop, limits):
                break
            total = cost[start] + _cue_cost(words, widths, start, stop, limits)
            if total < cost[stop]:
                cost[stop], back[stop] = total, start
    cuts = [n]
    while cuts[-1] > 0:
        cuts.append(back[cuts[-1]])
    return cuts[::-1]


def _fits(words: Sequence[Word], widths: _Widths, start: int, stop: int, limits: Limits) -> bool:
    if words[stop - 1].end - words[start].start > limits.duration_s:
        return False
    if words[stop - 1].start - words[stop - 2].end >= LONG_PAUSE_S:
        return False
    needed = len(_greedy_lines(widths, start, stop, limits.width))
    return limits.lines is None or needed <= limits.lines


def _cue_cost(words: Sequence[Word], widths: _Widths, start: int, stop: int, limits: Limits) -> float:
    """The cut after the cue, weighted, plus the room it leaves (squared: evens out cue lengths);
    a sentence that begins inside the cue and goes on into the next one costs extra."""
    cost = CUE_COST + 3.0 * break_cost(words, stop - 1)
    unfinished = stop < len(words) and not ends_sentence(one_line(words[stop - 1].word))
    if unfinished and widths.sentence_ends[stop - 1] > widths.sentence_ends[start]:
        cost += 3.0
    if limits.width is not None and limits.lines is not None:
        room = 1.0 - widths.line(start, stop) / (limits.width * limits.lines)
        cost += 2.0 * max(room, 0.0) ** 2
    return cost


def _greedy_lines(widths: _Widths, start: int, stop: int, width: int | None) -> list[tuple[int, int]]:
    """(start, stop) of each line, filled word by word: the fewest lines that hold the words."""
    if width is None:
        return [(start, stop)]
    lines, first = [], start
    for index in range(start + 1, stop):
        if widths.line(first, index + 1) > width:
            lines.append((first, index))
            first = index
    lines.append((first, stop))
    return lines


def _lines(words: Sequence[Word], widths: _Widths, start: int, stop: int, limits: Limits) -> list[list[Word]]:
    """The cue's words as lines: one if it fits, two broken where they read best, else filled."""
    spans = _greedy_lines(widths, start, stop, limits.width)
    if len(spans) == 2 and limits.width is not None:
        width = limits.width
        middle = min(range(start + 1, stop), key=lambda k: _line_break_cost(words, widths, (start, k, stop), width))
        spans = [(start, middle), (middle, stop)]
    return [list(words[a:b]) for a, b in spans]


def _line_break_cost(words: Sequence[Word], widths: _Widths, span: tuple[int, int, int], width: int) -> float:
    """A line break before `words[middle]` of the cue `words[start:stop]`: a line over `width`
    (more than one word) rules it out; then the cut's cost and the lines' difference in length,
    a longer top line counting double."""
    start, middle, stop = span
    top, bottom = widths.line(start, middle), widths.line(middle, stop)
    over = (top > width and middle - start > 1) or (bottom > width and stop - middle > 1)
    longest = max(top, bottom, 1)
    imbalance = (bottom - top) / longest if bottom >= top else 2.0 * (top - bottom) / longest
    return (100.0 if over else 0.0) + 2.0 * break_cost(words, middle - 1) + 2.0 * imbalance

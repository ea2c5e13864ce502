"""Reading SRT/VTT back and checking every cue against the readable-subtitle rules (Netflix's and
the BBC's guidelines, as `SubtitleOptions()` sets them). Import as `subtitle_rules`."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

CUE = re.compile(r"(\d\d:\d\d:\d\d[.,]\d\d\d) --> (\d\d:\d\d:\d\d[.,]\d\d\d)\n((?:.+\n?)+)")
SENTENCE_END = re.compile(r"[.!?…][\"'”’)\]]*$")
CLAUSE_END = re.compile(r"[,;:–—-][\"'”’)\]]*$")
WIDTH, LINES, LONGEST_S, SHORTEST_S, GAP_S = 42, 2, 7.0, 0.84, 0.08
SLACK_S = 0.0015  # times are written in whole milliseconds


@dataclass
class ShownCue:
    start: float
    end: float
    lines: list[str]

    @property
    def text(self) -> str:
        return " ".join(self.lines)


def seconds(stamp: str) -> float:
    h, m, s = stamp.replace(",", ".").split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


def read_cues(text: str) -> list[ShownCue]:
    return [ShownCue(seconds(a), seconds(b), body.strip("\n").split("\n")) for a, b, body in CUE.findall(text)]


def rule_breaks(cues: list[ShownCue]) -> list[str]:
    """Each cue that breaks a rule, with the rule: lines, length, longest and shortest time shown
    (the last cue may end sooner, with the audio), overlap and gap."""
    found = []
    for number, cue in enumerate(cues, start=1):
        if len(cue.lines) > LINES:
            found.append(f"cue {number}: {len(cue.lines)} lines")
        found += [f"cue {number}: line of {len(line)} characters: {line!r}" for line in cue.lines
                  if len(line) > WIDTH and " " in line]
        if not cue.start < cue.end <= cue.start + LONGEST_S + SLACK_S:
            found.append(f"cue {number}: shown {cue.end - cue.start:.3f} s")
    for number, (cue, after) in enumerate(itertools.pairwise(cues), start=1):
        if after.start < cue.end + GAP_S - SLACK_S:
            found.append(f"cue {number} ends {after.start - cue.end:.3f} s before the next starts")
        if cue.end - cue.start < SHORTEST_S - SLACK_S:
            found.append(f"cue {number}: shown {cue.end - cue.start:.3f} s, too short to read")
    return found


def ends_well(cue: ShownCue) -> bool:
    """The cue ends where a sentence or a clause does."""
    last = cue.lines[-1].split()[-1]
    return bool(SENTENCE_END.search(last) or CLAUSE_END.search(last))


def dangling_sentence_ends(cues: list[ShownCue]) -> list[str]:
    """Cues whose first word ends the sentence the previous cue left unfinished: the one or two
    words of a sentence carried over alone."""
    found = []
    for cue, after in itertools.pairwise(cues):
        words = after.text.split()
        if not SENTENCE_END.search(cue.text) and any(SENTENCE_END.search(w) for w in words[:1]) and len(words) > 1:
            found.append(f"{cue.text!r} | {after.text!r}")
    return found

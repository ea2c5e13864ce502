"""Cue times that players show well: never overlapping, a short gap between cues, long enough to read.

Times are whole milliseconds (what SRT and VTT write), so the gaps hold after writing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from app.engine.export.cue_layout import Cue, line_text


@dataclass(frozen=True)
class Timing:
    """`min_duration_s`: the shortest a cue is shown when the next one leaves room;
    `min_gap_s`: the least time between one cue's end and the next one's start;
    `max_duration_s`: the longest a cue is shown; `reading_cps`: characters a second a viewer
    reads: a cue stays up past its last word (into the pause after it) until it can be read."""

    min_duration_s: float
    min_gap_s: float
    max_duration_s: float
    reading_cps: float


def retime(cues: Sequence[Cue], timing: Timing, audio_end_s: float = math.inf) -> None:
    """Set each cue's start and end in place, in order, within the rules of `timing`; the last
    cue is not kept up past `audio_end_s`. A cue always gets `min_duration_s`: where the next
    one follows too closely (words crowded into a moment), that one starts a little later."""
    gap = round(timing.min_gap_s * 1000)
    shortest = round(timing.min_duration_s * 1000)
    floor = 0  # the earliest the next cue may start, ms
    for index, cue in enumerate(cues):
        start = max(round(cue.start * 1000), floor)
        spoken = max(round(cue.end * 1000), start + 1)
        characters = sum(len(line_text(line)) for line in cue.lines)
        wanted = max(spoken, start + shortest, start + round(characters / timing.reading_cps * 1000))
        end = min(wanted, start + round(timing.max_duration_s * 1000))
        if index + 1 < len(cues):
            end = max(min(end, round(cues[index + 1].start * 1000) - gap), start + shortest)
        elif math.isfinite(audio_end_s):
            end = max(min(end, round(audio_end_s * 1000)), start + 1)
        cue.start, cue.end = start / 1000, end / 1000
        floor = end + gap

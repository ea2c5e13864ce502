"""SRT and WebVTT cues: readable, word-timed cues (the default) or one cue per segment.

`CueLayout.READABLE` cuts the timed words (`Segment.words`) into cues of at most
`max_line_count` lines of `max_line_width` characters, shown at most `max_duration_s`, cut at
sentence and clause ends (app/engine/export/cue_layout.py), then timed so that no two cues
overlap, a `min_gap_s` separates them and each stays up at least `min_duration_s` where the
next one leaves room (app/engine/export/cue_timing.py). Segments without word times are given
times spread over their words by length. With `highlight_words` each cue is written once per
word, from that word's start to its end, with the word underlined (`<u>`, which SRT players and
WebVTT both show), and plainly in the gaps between words.

`CueLayout.SEGMENTS` writes one cue per transcribed segment, as the engine cut them (only
clipped where a segment would overlap the next one).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from app.engine.export.cue_layout import Cue, Limits, layout_cues, line_text
from app.engine.export.cue_text import one_line, timestamp, vtt_escape
from app.engine.export.cue_timing import Timing, retime
from app.engine.types import Segment, Word

FRAME_S = 1 / 25
"""One frame of 25 fps video (the BBC's rate): gaps and durations are counted in frames."""


class CueLayout(enum.Enum):
    READABLE = "readable"
    """Word-timed cues within the line, line-count and duration limits, cut where they read best."""
    SEGMENTS = "segments"
    """One cue per transcribed segment, whatever its length."""


@dataclass(frozen=True)
class SubtitleOptions:
    """How SRT and VTT cues are laid out (the defaults follow Netflix's and the BBC's guidelines).

    `max_line_width`: characters per line (None: no limit); `max_line_count`: lines per cue
    (None: no limit); `highlight_words`: underline each word while it is spoken;
    `layout`: readable cues or one per segment; `max_duration_s`, `min_duration_s`: how long a
    cue is shown, seconds; `min_gap_s`: seconds between cues (2 frames); `reading_cps`: the
    reading speed, characters a second, a cue is kept up for when the pause after it allows.
    """

    max_line_width: int | None = 42
    max_line_count: int | None = 2
    highlight_words: bool = False
    layout: CueLayout = CueLayout.READABLE
    max_duration_s: float = 7.0
    min_duration_s: float = 0.84
    min_gap_s: float = 2 * FRAME_S
    reading_cps: float = 20.0

    def __post_init__(self) -> None:
        for name in ("max_line_width", "max_line_count"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise ValueError(f"{name.replace('_', '-')} must be at least 1, not {value}")
        if not 0 < self.min_duration_s <= self.max_duration_s:
            raise ValueError(
                f"cue durations must be 0 < min ({self.min_duration_s} s) <= max ({self.max_duration_s} s)"
            )
        if self.min_gap_s < 0 or self.reading_cps <= 0:
            raise ValueError("the gap between cues must be >= 0 s and the reading speed > 0")

    @property
    def word_level(self) -> bool:
        """Cues of words (readable, or highlighted word by word) rather than of whole segments."""
        return self.layout is CueLayout.READABLE or self.highlight_words


READABLE = SubtitleOptions()
PER_SEGMENT = SubtitleOptions(layout=CueLayout.SEGMENTS)


def word_cues(segments: Sequence[Segment], options: SubtitleOptions, audio_end_s: float = math.inf) -> list[Cue]:
    """The cues of every segment's words (times spread by length where a segment has none),
    none kept up past `audio_end_s`."""
    words = _in_time_order([w for segment in segments for w in _timed_words(segment) if one_line(w.word)])
    limits = Limits(options.max_line_width, options.max_line_count, options.max_duration_s)
    cues = layout_cues(words, limits)
    timing = Timing(options.min_duration_s, options.min_gap_s, options.max_duration_s, options.reading_cps)
    retime(cues, timing, audio_end_s)
    return cues


def _in_time_order(words: list[Word]) -> list[Word]:
    """The words with times that never go back: a word said before the previous one ended
    (times from a window decoded again from an earlier point) starts as that one ends."""
    ordered: list[Word] = []
    for word in words:
        if ordered and word.start < ordered[-1].end:
            start = ordered[-1].end
            word = Word(word.word, start, max(word.end, start), word.probability, word.tokens)
        ordered.append(word)
    return ordered


def _timed_words(segment: Segment) -> list[Word]:
    """The segment's words; without word times, its text's words with the segment's time
    shared out by their length in characters."""
    if segment.words is not None:
        return list(segment.words)
    pieces = [f" {piece}" for piece in segment.text.split()]
    total = sum(len(p) for p in pieces) or 1
    span = max(segment.end - segment.start, 0.0)
    words, at = [], segment.start
    for piece in pieces:
        length = span * len(piece) / total
        words.append(Word(piece, at, at + length, 1.0))
        at += length
    return words


def render_word_cues(
    fmt: str, segments: Sequence[Segment], options: SubtitleOptions, audio_end_s: float = math.inf
) -> str:
    """The transcript as word-level "srt" or "vtt" text."""
    escape: Callable[[str], str] = vtt_escape if fmt == "vtt" else str
    frames = [
        frame
        for cue in word_cues(segments, options, audio_end_s)
        for frame in _cue_frames(cue, options.highlight_words, escape)
    ]
    return render_frames(fmt, frames)


def render_frames(fmt: str, frames: Sequence[tuple[float, float, str]]) -> str:
    """(start s, end s, text) cues as "srt" (numbered from 1) or "vtt" text; text already escaped."""
    mark = "," if fmt == "srt" else "."
    blocks = []
    for number, (start, end, text) in enumerate(frames, start=1):
        span = f"{timestamp(start, mark)} --> {timestamp(end, mark)}"
        blocks.append(f"{number}\n{span}\n{text}\n" if fmt == "srt" else f"{span}\n{text}\n")
    return "\n".join(blocks) if fmt == "srt" else "\n".join(["WEBVTT\n", *blocks])


def _cue_frames(cue: Cue, highlight: bool, escape: Callable[[str], str]) -> list[tuple[float, float, str]]:
    """(start, end, text) to write for one cue: itself, or one frame per word and gap, inside the cue."""
    plain = "\n".join(escape(line_text(line)) for line in cue.lines)
    if not highlight:
        return [(cue.start, cue.end, plain)]
    frames: list[tuple[float, float, str]] = []
    previous_end = cue.start
    for index, word in enumerate(cue.words):
        start = min(max(word.start, previous_end), cue.end)
        end = min(max(word.end, start), cue.end)
        if start > previous_end:
            frames.append((previous_end, start, plain))
        if end > start or not frames:
            frames.append((start, end, _highlighted(cue, index, escape)))
        previous_end = end
    if cue.end > previous_end:
        frames.append((previous_end, cue.end, plain))
    return frames


def _highlighted(cue: Cue, target: int, escape: Callable[[str], str]) -> str:
    """The cue's lines with word number `target` underlined (spacing as in the text)."""
    lines, index = [], 0
    for line in cue.lines:
        parts = []
        for word in line:
            text = one_line(word.word)
            space = " " if word.word[:1].isspace() else ""
            parts.append(f"{space}<u>{escape(text)}</u>" if index == target else f"{space}{escape(text)}")
            index += 1
        lines.append("".join(parts).strip())
    return "\n".join(lines)

"""Word-level SRT and WebVTT: cues built from timed words (`Segment.words`), lines broken at words.

A cue holds at most `max_line_count` lines of at most `max_line_width` characters (a line is
longer only when one word alone is); a cue never spans two segments. With `highlight_words` each
cue is written once per word, from that word's start to its end, with the word underlined
(`<u>`, which SRT players and WebVTT both show), and plainly in the gaps between words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from app.engine.export.cue_text import one_line, timestamp, vtt_escape
from app.engine.types import Segment, Word


@dataclass(frozen=True)
class SubtitleOptions:
    """`max_line_width`: characters per line; `max_line_count`: lines per cue (None: no limit).
    Any of the three set asks for word-level cues (and needs segments with words)."""

    max_line_width: int | None = None
    max_line_count: int | None = None
    highlight_words: bool = False

    def __post_init__(self) -> None:
        for name in ("max_line_width", "max_line_count"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise ValueError(f"{name.replace('_', '-')} must be at least 1, not {value}")

    @property
    def word_level(self) -> bool:
        return self.max_line_width is not None or self.max_line_count is not None or self.highlight_words


@dataclass
class Cue:
    """Lines of words shown together; times are its first word's start and last word's end."""

    lines: list[list[Word]]

    @property
    def words(self) -> list[Word]:
        return [w for line in self.lines for w in line]

    @property
    def start(self) -> float:
        return self.lines[0][0].start

    @property
    def end(self) -> float:
        return max(self.lines[-1][-1].end, self.start)


def word_cues(segments: Sequence[Segment], options: SubtitleOptions) -> list[Cue]:
    """The cues of every segment's words, packed within the limits, in order."""
    cues: list[Cue] = []
    for segment in segments:
        words = [w for w in segment.words or [] if one_line(w.word)]
        cue: list[list[Word]] = []
        for word in words:
            if cue and _fits(cue[-1], word, options.max_line_width):
                cue[-1].append(word)
                continue
            if cue and options.max_line_count is not None and len(cue) >= options.max_line_count:
                cues.append(Cue(cue))
                cue = []
            cue.append([word])
        if cue:
            cues.append(Cue(cue))
    return cues


def line_text(line: Sequence[Word]) -> str:
    return one_line("".join(w.word for w in line))


def _fits(line: list[Word], word: Word, width: int | None) -> bool:
    return width is None or len(line_text([*line, word])) <= width


def render_word_cues(fmt: str, segments: Sequence[Segment], options: SubtitleOptions) -> str:
    """The transcript as word-level "srt" or "vtt" text."""
    mark = "," if fmt == "srt" else "."
    escape: Callable[[str], str] = vtt_escape if fmt == "vtt" else str
    blocks: list[str] = []
    for cue in word_cues(segments, options):
        for start, end, text in _cue_frames(cue, options.highlight_words, escape):
            span = f"{timestamp(start, mark)} --> {timestamp(end, mark)}"
            blocks.append(f"{len(blocks) + 1}\n{span}\n{text}\n" if fmt == "srt" else f"{span}\n{text}\n")
    return "\n".join(blocks) if fmt == "srt" else "\n".join(["WEBVTT\n", *blocks])


def _cue_frames(cue: Cue, highlight: bool, escape: Callable[[str], str]) -> list[tuple[float, float, str]]:
    """(start, end, text) to write for one cue: itself, or one frame per word and gap."""
    plain = "\n".join(escape(line_text(line)) for line in cue.lines)
    if not highlight:
        return [(cue.start, cue.end, plain)]
    frames: list[tuple[float, float, str]] = []
    previous_end = cue.start
    for index, word in enumerate(cue.words):
        if word.start > previous_end:
            frames.append((previous_end, word.start, plain))
        frames.append((word.start, max(word.end, word.start), _highlighted(cue, index, escape)))
        previous_end = max(word.end, word.start)
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

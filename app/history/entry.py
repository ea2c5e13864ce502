"""One history entry as the app sees it: kind, name, text and the times of its pieces (Qt-free)."""

from __future__ import annotations

import enum
import json
import logging
from dataclasses import dataclass

log = logging.getLogger(__name__)

NAME_WORDS = 6
"""How many first words name an entry the user has not named."""
NAME_CHARS = 48


class EntryKind(enum.Enum):
    DICTATION = "dictation"
    FILE = "file"


@dataclass(frozen=True)
class TimedText:
    """A piece of an entry's text and when it was spoken (seconds into its audio)."""

    start: float
    end: float
    text: str


@dataclass(frozen=True)
class HistoryEntry:
    """One transcript. Times are seconds since the epoch; `title` is "" until the user names it."""

    id: int
    kind: EntryKind
    title: str
    source: str
    created: float
    updated: float
    text: str
    segments: tuple[TimedText, ...] = ()
    original: str = ""
    """The text as transcribed, once the user has edited it ("" while unedited)."""
    stopped_at_s: float = 0.0
    """> 0: the run was stopped there (seconds into its audio: cancelled, or the app quit); 0: complete."""
    words: tuple[TimedText, ...] = ()
    """A dictation's words as they were committed (before the text rules: fillers, replacements), with
    their times; () for file jobs (their word times come with the job) and older dictations."""

    @property
    def edited(self) -> bool:
        return bool(self.original) and self.original != self.text

    @property
    def name(self) -> str:
        """The user's name for it, else its first words (a file: its name), else "Dictation"."""
        if self.title.strip():
            return self.title.strip()
        if self.kind == EntryKind.FILE and self.source:
            return self.source.replace("\\", "/").rsplit("/", 1)[-1]
        words = self.text.split()
        name = " ".join(words[:NAME_WORDS])
        if len(name) > NAME_CHARS:
            name = name[:NAME_CHARS].rsplit(" ", 1)[0] or name[:NAME_CHARS]
        if not name:
            return "Dictation" if self.kind == EntryKind.DICTATION else "Transcript"
        return name.rstrip(",;:-") + ("…" if len(words) > len(name.split()) else "")

    @property
    def pieces(self) -> tuple[TimedText, ...]:
        """Its segments, each with the closing mark its text begins with given back to the one
        before (dictations stored by older versions began pieces with ". Next words")."""
        out: list[TimedText] = []
        for segment in self.segments:
            mark, rest = split_closing_mark(segment.text) if out else ("", segment.text)
            if mark:
                out[-1] = TimedText(out[-1].start, out[-1].end, out[-1].text.rstrip() + mark)
            if rest.strip() or not mark:
                out.append(TimedText(segment.start, segment.end, rest.strip()))
        return tuple(out)

    @property
    def timed(self) -> bool:
        """True when its segments still say the text (not when the user edited it)."""
        return bool(self.segments) and _words(" ".join(s.text for s in self.pieces)) == _words(self.text)


CLOSING_MARKS = frozenset(".,;:!?…)]}»”’")
"""Punctuation that ends what comes before it (not quotes, which may open what follows)."""


def split_closing_mark(text: str) -> tuple[str, str]:
    """(the closing punctuation at the start of `text`, the rest): the live policy holds an
    utterance's end mark back and commits it with the next utterance's first words."""
    cut = 0
    while cut < len(text) and text[cut] in CLOSING_MARKS:
        cut += 1
    return text[:cut], text[cut:]


def _words(text: str) -> str:
    """`text` with its spacing made even (" ." as "."): what a reader compares."""
    joined = " ".join(text.split())
    for mark in CLOSING_MARKS:
        joined = joined.replace(" " + mark, mark)
    return joined


def segments_json(segments: tuple[TimedText, ...]) -> str:
    return json.dumps([[s.start, s.end, s.text] for s in segments]) if segments else ""


def parse_segments(stored: str) -> tuple[TimedText, ...]:
    """The stored JSON; () for none or for anything unreadable (the text is what matters)."""
    if not stored:
        return ()
    try:
        return tuple(TimedText(float(start), float(end), str(text)) for start, end, text in json.loads(stored))
    except (ValueError, TypeError):
        log.exception("An entry's segment times could not be read; it is exported without them")
        return ()

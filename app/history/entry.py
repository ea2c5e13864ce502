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
    def timed(self) -> bool:
        """True when its segments still say the text (not when the user edited it)."""
        joined = " ".join(" ".join(s.text for s in self.segments).split())
        return bool(self.segments) and joined == " ".join(self.text.split())


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

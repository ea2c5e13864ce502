"""What the review view shows, Qt-free: a transcript's segments with their times (and word times
where known), the audio they refer to, and the edited segments to store.

Dictations and file jobs read alike: a History entry's timed pieces (a dictation's utterances, a
file's segments), or a finished job's segments with word times. An entry whose text no longer
matches its pieces (edited as a whole) is one untimed segment. Each segment keeps its times
when the user edits its text; words still found in the edited text keep theirs too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from app.engine.types import Segment
from app.history.store import EntryKind, HistoryEntry, HistoryStore, TimedText


@dataclass(frozen=True)
class WordTime:
    """One word as written (stripped) and when it is spoken (seconds into the audio)."""

    text: str
    start: float
    end: float


@dataclass(frozen=True)
class ReviewSegment:
    """A segment's text and times (seconds); `timed` is False for text without times."""

    start: float
    end: float
    text: str
    words: tuple[WordTime, ...] = ()
    timed: bool = True

    def word_at(self, text: str, offset: int) -> WordTime | None:
        """The timed word of `text` (this segment's text as it reads now) whose characters
        include `offset`, or end at it (a click just after a word)."""
        return next((word for first, end, word in self.word_spans(text) if first <= offset <= end), None)

    def word_spans(self, text: str) -> list[tuple[int, int, WordTime]]:
        """(first, end) character offsets in `text` of each timed word still found there, in order."""
        spans, cursor = [], 0
        for word in self.words:
            found = text.find(word.text, cursor) if word.text else -1
            if found >= 0:
                spans.append((found, found + len(word.text), word))
                cursor = found + len(word.text)
        return spans

    def time_at(self, text: str, offset: int) -> float:
        """Where playback of a click at `offset` in `text` starts: the word's start, else the segment's."""
        word = self.word_at(text, offset)
        return word.start if word is not None else self.start


@dataclass(frozen=True)
class ReviewDocument:
    """A transcript to review: `entry_id` is its History entry (None: not in the History, edits
    cannot be saved); `audio` the file its times refer to (None: nothing to play)."""

    title: str
    kind: EntryKind
    segments: tuple[ReviewSegment, ...]
    audio: Path | None = None
    entry_id: int | None = None

    @property
    def timed(self) -> bool:
        return any(s.timed for s in self.segments)

    def edited_pieces(self, texts: Sequence[str]) -> tuple[TimedText, ...]:
        """The segments with `texts` (one per segment, as edited), each keeping its times."""
        if len(texts) != len(self.segments):
            raise ValueError(f"{len(texts)} texts for {len(self.segments)} segments")
        return tuple(TimedText(s.start, s.end, t.strip()) for s, t in zip(self.segments, texts, strict=True))

    def with_texts(self, texts: Sequence[str]) -> ReviewDocument:
        segments = tuple(replace(s, text=t.strip()) for s, t in zip(self.segments, texts, strict=True))
        return replace(self, segments=segments)


def from_entry(entry: HistoryEntry, audio: Path | None) -> ReviewDocument:
    """A History entry: its timed pieces, or its text as one untimed segment when the text no
    longer matches them (or it has none)."""
    if entry.timed:
        pieces = [p for p in entry.pieces if p.text.strip()]
        words = _words_by_piece(pieces, entry.words)
        segments = tuple(ReviewSegment(p.start, p.end, p.text.strip(), w) for p, w in zip(pieces, words, strict=True))
    else:
        segments = (ReviewSegment(0.0, 0.0, entry.text.strip(), timed=False),)
    return ReviewDocument(entry.name, entry.kind, segments, audio, entry.id)


WORD_MARKS = '.,!?;:"“”‘’()…'
"""Stripped from a stored word's ends: the text rules may move or add punctuation around it."""


def _words_by_piece(pieces: Sequence[TimedText], words: Sequence[TimedText]) -> list[tuple[WordTime, ...]]:
    """A dictation's word times, each with the utterance it was spoken in: the last one that had
    started by then (a word that starts a little before its utterance's first time goes to it)."""
    shared: list[list[WordTime]] = [[] for _ in pieces]
    for word in words:
        text = word.text.strip(WORD_MARKS)
        if not text or not pieces:
            continue
        index = max((i for i, p in enumerate(pieces) if p.start <= word.start + 0.1), default=0)
        shared[index].append(WordTime(text, word.start, word.end))
    return [tuple(found) for found in shared]


def from_segments(title: str, segments: Sequence[Segment], audio: Path | None, entry_id: int | None) -> ReviewDocument:
    """A finished file job's segments, with their word times."""
    shown = tuple(
        ReviewSegment(
            s.start, s.end, s.text.strip(), tuple(WordTime(w.word.strip(), w.start, w.end) for w in s.words or [])
        )
        for s in segments
        if s.text.strip()
    )
    return ReviewDocument(title, EntryKind.FILE, shown or (ReviewSegment(0.0, 0.0, "", timed=False),), audio, entry_id)


def clock(seconds: float) -> str:
    """`m:ss.s` (or `h:mm:ss.s` from an hour on) for a time in seconds."""
    tenths = round(max(0.0, seconds) * 10)
    hours, rest = divmod(tenths, 36000)
    minutes, rest = divmod(rest, 600)
    text = f"{minutes:02d}:{rest // 10:02d}.{rest % 10}" if hours else f"{minutes}:{rest // 10:02d}.{rest % 10}"
    return f"{hours}:{text}" if hours else text


def file_entry_id(history: HistoryStore, path: Path) -> int | None:
    """The newest History entry of the media file `path` (a finished job's), or None."""
    return next((e.id for e in history.search() if e.kind is EntryKind.FILE and e.source == str(path)), None)

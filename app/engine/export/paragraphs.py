"""Plain-text transcripts as paragraphs: segments joined into sentences, never broken mid-sentence.

Whisper's segments are spans of up to ~30 s cut at timestamp tokens, often in the middle of a
sentence; one line per segment reads as broken text. The segments' texts are joined (with a
space, or directly for languages written without spaces), and a new paragraph starts only
where a sentence ends and either the speaker paused (`PARAGRAPH_PAUSE_S`) or the paragraph is
already long (`PARAGRAPH_CHARS`).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.engine.sentence_ends import ends_sentence
from app.engine.types import Segment

PARAGRAPH_PAUSE_S = 2.0
"""Silence (seconds) between two segments that ends a paragraph, if a sentence ends there."""
PARAGRAPH_CHARS = 600
"""A paragraph this long (characters) ends at its next sentence end, pause or not."""
NO_SPACE_LANGUAGES = frozenset({"zh", "yue", "ja", "th", "lo", "my", "km"})
"""Languages written without spaces between words: their segments are joined directly."""


def paragraphs(segments: Sequence[Segment], language: str) -> list[str]:
    """The segments' texts as paragraphs, each one line of whole sentences (the last may be
    unfinished if the speech was). Segments without text are skipped."""
    separator = "" if language in NO_SPACE_LANGUAGES else " "
    result: list[str] = []
    current: list[str] = []
    previous: Segment | None = None
    for segment in segments:
        text = " ".join(segment.text.split())
        if not text:
            continue
        if current and previous is not None and _paragraph_ends(current, previous, segment, separator):
            result.append(separator.join(current))
            current = []
        current.append(text)
        previous = segment
    if current:
        result.append(separator.join(current))
    return result


def _paragraph_ends(current: list[str], previous: Segment, following: Segment, separator: str) -> bool:
    if not ends_sentence(current[-1]):
        return False  # never mid-sentence, however long the pause
    paused = following.start - previous.end >= PARAGRAPH_PAUSE_S
    return paused or len(separator.join(current)) >= PARAGRAPH_CHARS


def render_paragraphs(segments: Sequence[Segment], language: str) -> str:
    """The TXT document: paragraphs separated by a blank line, ending with a newline ("" if no text)."""
    found = paragraphs(segments, language)
    return "\n\n".join(found) + "\n" if found else ""

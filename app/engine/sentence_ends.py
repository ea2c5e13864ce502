"""Where a written sentence ends: its last mark, closing quotes and brackets allowed."""

from __future__ import annotations

SENTENCE_ENDS = (".", "!", "?", "…", "。", "！", "？", "؟", "।")
"""Marks that end a sentence, in the scripts Whisper writes (full-width forms included)."""
CLOSERS = "\"'”’»)]}」』"
"""Quotes and brackets that may follow a sentence's mark: `planks."`."""


def ends_sentence(text: str) -> bool:
    """True when `text` ends with sentence-final punctuation (closing quotes/brackets allowed)."""
    return text.rstrip().rstrip(CLOSERS).endswith(SENTENCE_ENDS)

"""Whisper copying its prompt: conditioned on the previous window's text, a window can be decoded
as a run of sentences from that text instead of what it hears (tiny.en on a file of the committed
espeak clips said twice can write its second window as "I need $300 for the new laptop. Our team
has 12 people ..." copied from the prompt, twice, losing everything that window heard, at a good
average log-probability, so neither the log-probability nor the compression-ratio fallback
catches it). The check here finds such a window; the transcriber then decodes it again without the
previous text, and that decode, which hears only the audio, is kept.

In a file the copy can be short: tiny.en conditioned on a window that ended "... Montreal. First.
A liner. Printing in the only sense ..." can write the next window, which says "one two three"
twice and begins that sentence again, as "Montreal. First. A liner." alone, four words stamped
over the speech it lost. A window of a file is therefore also decoded again when it opens with a
run of FILE_COPIED_RUN_WORDS of its prompt. Dictation (app/dictation/prompted_decode.py) checks the
longer run only."""

from __future__ import annotations

import re

COPIED_RUN_WORDS = 8
"""A window that repeats this many consecutive words of its prompt is decoded again without it:
long enough that ordinary speech rarely repeats it within 30 s; speech that really does repeat
decodes to the same words without the prompt, at the cost of one more decode."""

FILE_COPIED_RUN_WORDS = 4
"""The run a window of a file may open with from its prompt before it is decoded again without
it. Real speech that repeats a phrase (a refrain, "one two three" said twice) is heard again
without the prompt, so the decode kept loses nothing; the cost is one more decode of that
window, and a prompt that starts afresh after it."""
FILE_COPY_OPENING_WORDS = 3
"""A short run counts where it starts within this many words of the window's start: the copy
continues the prompt, while a phrase said again later in a window is only speech (decoding
such windows afresh changes where later windows start, and Whisper then skips other sentences)."""

_WORD = re.compile(r"[a-z0-9']+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def copies_prompt(decoded: str, prompt: str, run: int = COPIED_RUN_WORDS, opening: int | None = None) -> bool:
    """`decoded` (a window's text) repeats `run` consecutive words of `prompt` (the text it was
    conditioned on), compared case- and punctuation-blind; with `opening`, only a run that
    starts within the first `opening` words of `decoded` counts."""
    said, heard = _words(prompt), _words(decoded)
    if len(said) < run or len(heard) < run:
        return False
    runs = {tuple(said[i : i + run]) for i in range(len(said) - run + 1)}
    starts = len(heard) - run + 1 if opening is None else min(opening, len(heard) - run + 1)
    return any(tuple(heard[i : i + run]) in runs for i in range(starts))

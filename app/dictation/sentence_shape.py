"""Sentence shape across utterances: which mark ends the committed text, and whether the next
committed word starts a sentence.

The policy commits an utterance's last word without its punctuation mark (the mark is "held")
and decides the mark when the next words come: Whisper writes a period after a fragment it
heard alone ("Americans.") and a comma once it hears the rest ("Americans, ask not"). Four
things go wrong without the rules here, all seen on the benchmark sessions:

- a later hypothesis of a joined window drops the period the model wrote before a capitalised
  word ("country Mr. Quilter" where the first hypothesis had "country."): a held end mark
  before an upper-case word is kept;
- an utterance that ends without a mark, followed after a pause by one that starts a sentence,
  runs on ("country Mr. Quilter"): a period is written between them;
- the same after a sentence pause in a joined window (the previous sentence still in it), where
  Whisper starts a new segment at the new words but writes them lower-case with no mark before
  ("for your country" | " she had your dark suit", tiny.en on JFK and TIMIT 1.5 s apart): the
  segment break at the pause marks the sentence start, the lower case does not (in a fresh window
  the pause alone already makes one, as Whisper capitalises whatever comes first);
- a session stopped mid-sentence ends without a period: the session's last mark becomes one.

A sentence never starts lower-case after end punctuation (`capitalise`).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.dictation.text import END_MARKS, capitalise

# words Whisper writes upper-case anywhere in a sentence: their case says nothing
_ALWAYS_UPPER = frozenset({"i", "i'm", "i've", "i'll", "i'd"})


@dataclass(frozen=True)
class UtteranceBoundary:
    """What the policy knows when it commits the first words of a new utterance.
    `pause_s`: seconds of silence since the previous utterance ended (VAD padding included).
    `joined`: the new utterance's window still holds the previous utterance's audio, so the
    decoder heard both and its capital letter means a sentence start (in a fresh window Whisper
    capitalises whatever comes first).
    `new_segment`: in a joined window, the latest hypothesis starts one of its segments at the
    new utterance's first word: Whisper itself breaks the text at the pause."""

    pause_s: float
    joined: bool
    new_segment: bool = False


def ends_sentence(mark: str) -> bool:
    """ "." "?" "!" (and combinations such as "?!"), but not an ellipsis (".." or more)."""
    return mark.endswith(END_MARKS) and not mark.endswith("..")


def starts_sentence(text: str) -> bool:
    """The word (with its leading space) is written upper-case and is not a word that always is."""
    stripped = text.strip()
    return stripped[:1].isupper() and stripped.lower().rstrip(".,?!;:") not in _ALWAYS_UPPER


def mark_between(
    held: str,
    decided: str | None,
    next_text: str,
    boundary: UtteranceBoundary | None,
    close_sentences: bool = True,
    sentence_pause_s: float = 0.8,
) -> tuple[str, str]:
    """The mark to write after the committed text, and the next word's text (with its space).

    `held`: the mark the committed text ended with when it was committed; `decided`: the mark a
    later hypothesis, which heard the words that follow, puts after that same word (None when
    the window no longer holds it); `boundary`: set when `next_text` is the first committed word
    of a new utterance. `close_sentences` enables the rules in the module docstring; a fresh
    window's capital counts only after a pause of at least `sentence_pause_s`.
    """
    mark = held if decided is None else decided
    if close_sentences:
        upper = starts_sentence(next_text)
        if decided == "" and ends_sentence(held) and upper:
            mark = held
        if not mark and boundary is not None and _sentence_break(boundary, upper, sentence_pause_s):
            mark = "."
    if ends_sentence(mark):
        next_text = capitalise(next_text)
    return mark, next_text


def _sentence_break(boundary: UtteranceBoundary, upper: bool, sentence_pause_s: float) -> bool:
    """The new utterance starts a sentence: a capital in a joined window or after a sentence
    pause (`sentence_pause_s`, s), or, after a sentence pause in a joined window, a segment of
    Whisper's own starting at its first word."""
    long_pause = boundary.pause_s >= sentence_pause_s
    if upper:
        return boundary.joined or long_pause
    return boundary.joined and boundary.new_segment and long_pause


def final_mark(held: str, close_sentences: bool = True) -> str:
    """The mark that ends a session whose committed text ends with `held` held: a period where the
    text stops mid-sentence (`close_sentences`; a comma, semicolon or colon becomes one), an end
    mark or an ellipsis as it is."""
    if not close_sentences or ends_sentence(held) or held.endswith(".."):
        return held
    return "."

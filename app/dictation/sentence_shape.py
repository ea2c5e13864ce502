"""Sentence shape across utterances: which mark ends the committed text, and whether the next
committed word starts a sentence.

The policy commits an utterance's last word without its punctuation mark (the mark is "held")
and decides the mark when the next words come: Whisper writes a period after a fragment it
heard alone ("Americans.") and a comma once it hears the rest ("Americans, ask not"). Three
things go wrong without the rules here, all measured on the benchmark sessions:

- a later hypothesis of a joined window drops the period the model wrote before a capitalised
  word ("country Mr. Quilter" where the first hypothesis had "country."): a held end mark
  before an upper-case word is kept;
- an utterance that ends without a mark, followed after a pause by one that starts a sentence,
  runs on ("country Mr. Quilter"): a period is written between them;
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
    capitalises whatever comes first)."""

    pause_s: float
    joined: bool


def ends_sentence(mark: str) -> bool:
    """"." "?" "!" (and combinations such as "?!"), but not an ellipsis (".." or more)."""
    return mark.endswith(END_MARKS) and not mark.endswith("..")


def starts_sentence(text: str) -> bool:
    """The word (with its leading space) is written upper-case and is not a word that always is."""
    stripped = text.strip()
    return stripped[:1].isupper() and stripped.lower().rstrip(".,?!;:") not in _ALWAYS_UPPER


def mark_between(held: str, decided: str | None, next_text: str, boundary: UtteranceBoundary | None,
                 close_sentences: bool = True, sentence_pause_s: float = 0.8) -> tuple[str, str]:
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
        if not mark and boundary is not None and upper and (
                boundary.joined or boundary.pause_s >= sentence_pause_s):
            mark = "."
    if ends_sentence(mark):
        next_text = capitalise(next_text)
    return mark, next_text


def final_mark(held: str, close_sentences: bool = True) -> str:
    """The mark that ends a session whose committed text ends with `held` held: a period where the
    text stops mid-sentence (`close_sentences`; a comma, semicolon or colon becomes one), an end
    mark or an ellipsis as it is."""
    if not close_sentences or ends_sentence(held) or held.endswith(".."):
        return held
    return "."

"""The built-in spoken punctuation and commands, and the default filler words (English)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SpokenCommand:
    """Saying `words` (normalised: lower case, no punctuation) outputs `text`.

    `attach_left`: no space before it ("," "."); `attach_right`: no space after it ("(" or a new
    line); `ends_sentence`: the next word gets a capital letter; `is_punctuation`: it replaces the
    punctuation Whisper guessed before it (a new line or an opening quote keeps that).
    """

    words: tuple[str, ...]
    text: str
    attach_left: bool = True
    attach_right: bool = False
    ends_sentence: bool = False
    is_punctuation: bool = True


def _closing(text: str, *phrases: str, ends_sentence: bool = False) -> list[SpokenCommand]:
    return [SpokenCommand(tuple(p.split()), text, ends_sentence=ends_sentence) for p in phrases]


def _opening(text: str, *phrases: str) -> list[SpokenCommand]:
    return [SpokenCommand(tuple(p.split()), text, False, True, is_punctuation=False) for p in phrases]


def _line_break(text: str, *phrases: str) -> list[SpokenCommand]:
    return [SpokenCommand(tuple(p.split()), text, True, True, True, is_punctuation=False) for p in phrases]


SPOKEN_COMMANDS: tuple[SpokenCommand, ...] = (
    *_closing(",", "comma"),
    *_closing(".", "period", "full stop", "fullstop", ends_sentence=True),
    *_closing("?", "question mark", ends_sentence=True),
    *_closing("!", "exclamation mark", "exclamation point", ends_sentence=True),
    *_closing(":", "colon"),
    *_closing(";", "semicolon", "semi colon"),
    *_closing("…", "ellipsis", "dot dot dot"),
    *_closing('"', "close quote", "end quote", "unquote"),
    *_closing(")", "close paren", "close parenthesis", "close bracket"),
    *_opening('"', "open quote", "begin quote"),
    *_opening("(", "open paren", "open parenthesis", "open bracket"),
    *_line_break("\n", "new line", "newline"),
    *_line_break("\n\n", "new paragraph"),
    SpokenCommand(("hyphen",), "-", attach_right=True),
)

DEFAULT_FILLERS: frozenset[str] = frozenset({"um", "umm", "uh", "uhh", "uhm", "erm", "er", "ah", "hmm", "mm", "mhm"})
"""Hesitations removed when `remove_fillers` is on (single words only: "you know" may be meant)."""

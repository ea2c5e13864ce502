"""Contextual biasing: the user's words (names, terms) get a bonus on the logits of their tokens.

Each listed word is spelled as Whisper writes it mid-sentence (" Okonkwo") and, when it starts in
lower case, also capitalised (" Kubectl" at a sentence start). Matching is by text, not by one
tokenization: the model may spell " Schwarzkopf" as " Schwarz"+"k"+"op"+"f" or " Schw"+"ar"+...,
and every token that extends a listed word's text gets the bonus.

At every step a row's last sampled tokens are read back as text. A listed word is opened by its
own first token (" Ok" of " Okonkwo") or by any token covering at least `MIN_START_CHARS` of its
characters (" Sch", " Schw", not " S"); such tokens get `boost * start_share`, a smaller push,
since a start is a guess that the word is being said and a full bonus there would write it where
it was not. When the row's text ends inside a listed word it has opened, the tokens that continue
it get `boost`. A word just written gets no push to start again (a loop would repeat it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

MIN_START_CHARS = 4
"""A token other than the word's own first one opens it when it covers the space and at least
three letters (all of a shorter word)."""


class PieceVocabulary(Protocol):
    """What the boost needs of the tokenizer: text to tokens, the token written exactly as a
    text, and back."""

    def encode(self, text: str) -> list[int]: ...

    def piece_id(self, text: str) -> int | None: ...

    def decode(self, tokens: Sequence[int]) -> str: ...

    def __hash__(self) -> int: ...  # the built tables are cached per tokenizer


def spellings(word: str) -> list[str]:
    """The ways `word` appears mid-text: with its leading space, and capitalised when it is
    written in lower case (a sentence may start with it)."""
    word = " ".join(word.split())
    if not word:
        return []
    variants = [" " + word]
    if word[0].islower():
        variants.append(" " + word[0].upper() + word[1:])
    return variants


@dataclass(frozen=True)
class SpellingTable:
    """For each written prefix of a listed spelling (" Schw"), the token ids that continue it
    (text s[p:q] for a later q); `whole`: the spellings; `starts`: ids that open a word."""

    continuing: dict[str, frozenset[int]]
    whole: frozenset[str]
    starts: NDArray[np.int64]
    longest: int


@lru_cache(maxsize=8)
def spelling_table(vocabulary: PieceVocabulary, words: tuple[str, ...]) -> SpellingTable:
    """Built once per tokenizer and word list (a live session decodes many windows with both)."""
    continuing: dict[str, set[int]] = {}
    starts: set[int] = set()
    whole = {s for word in words for s in spellings(word)}
    for spelling in whole:
        first = vocabulary.decode(vocabulary.encode(spelling)[:1])
        opened = min(len(first), MIN_START_CHARS, len(spelling))
        for p in range(len(spelling)):
            for q in range(max(p + 1, opened), len(spelling) + 1):
                token = vocabulary.piece_id(spelling[p:q])
                if token is None:
                    continue
                if p == 0:
                    starts.add(token)
                elif p >= opened:
                    continuing.setdefault(spelling[:p], set()).add(token)
    return SpellingTable(
        {k: frozenset(v) for k, v in continuing.items()},
        frozenset(whole),
        np.array(sorted(starts), dtype=np.int64),
        max((len(s) for s in whole), default=0),
    )


class VocabularyBoost:
    """A logit filter: adds `boost` (logits, > 0) to the tokens that continue a listed word and
    `boost * start_share` to the tokens that start one. Only text tokens (ids below `eot`) are
    read back; a timestamp or special token ends the match."""

    def __init__(
        self, vocabulary: PieceVocabulary, words: Iterable[str], boost: float, eot: int, start_share: float = 0.5
    ) -> None:
        self.vocabulary, self.boost, self.start_share, self.eot = vocabulary, boost, start_share, eot
        self.table = spelling_table(vocabulary, tuple(words))
        self._texts: dict[int, str] = {}

    @property
    def empty(self) -> bool:
        return not self.table.whole

    def apply(self, logits: NDArray[np.float32], sampled: Sequence[Sequence[int]]) -> None:
        """`logits` [rows, n_vocab] float32, edited in place; -inf (forbidden) stays -inf."""
        if self.empty:
            return
        start = self.boost * self.start_share
        for row, seq in enumerate(sampled):
            written, following = self.match(seq)
            if not written and self.table.starts.size:
                logits[row, self.table.starts] += start
            if following:
                ids = np.fromiter(following, dtype=np.int64)
                # A start already pushed by the share gets the rest of the full bonus.
                share = np.isin(ids, self.table.starts) if not written else np.zeros(len(ids), dtype=bool)
                logits[row, ids] += self.boost - start * share

    def match(self, seq: Sequence[int]) -> tuple[bool, set[int]]:
        """Whether `seq` ends with a whole listed word, and the tokens that continue a listed
        word whose first characters end `seq`."""
        text, written, following = "", False, set[int]()
        for token in reversed(seq):
            if token >= self.eot:  # a timestamp or special: no word spans it
                break
            text = self._text(token) + text
            if len(text) > self.table.longest:
                break
            written = written or text in self.table.whole
            following |= self.table.continuing.get(text, frozenset())
        return written, following

    def _text(self, token: int) -> str:
        if token not in self._texts:
            self._texts[token] = self.vocabulary.decode([token])
        return self._texts[token]

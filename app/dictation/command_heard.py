"""Commands heard in a short utterance's audio, by the decoder (Qt-free).

A small model often writes a command said alone as other words ("Here we go." for "period",
"in your life" for "new line"), too far from the phrase for the match by sound; and a few
ordinary short utterances sound like a command ("Not today." like "undo that"). The decoder
itself knows better: forced through it against the utterance's audio, the phrase that was said
scores near 0 per token, any other far below. So at the end of every utterance of at most
`CommandOptions.max_words` words whose text is not exactly a command's sound, the worker has
every fixed command phrase scored (`CommandListener`), and the gate decides with the text's
match and the decoder's best phrase together (`decide`). It costs one encoding of the
utterance and one batched forced decode, on short utterances only.

The best phrase is the one with the highest sum of log-probabilities over the square root of
its tokens: once a phrase has begun its later tokens are nearly certain ("icol", "on" after
" sem"), so the mean per token flatters long phrases and "semicolon" would beat a "colon" whose
one token is far likelier than " sem". Its threshold is still on the mean per token.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from app.dictation.command_calibration import phrase_threshold
from app.dictation.command_match import (
    LITERAL_PHRASE,
    LITERAL_SCORED,
    LITERAL_WORD,
    PHRASES,
    PREFIX_PHRASES,
    SCORED_PHRASES,
    CommandKind,
    CommandMatch,
    CommandOptions,
    CommandPhrase,
    match_command,
    may_be_command,
    normalised_words,
    phonetic_key,
    sounds_like_literal,
)
from app.dictation.decoder_port import PhraseScorer
from app.dictation.events import HeardPhrase

if TYPE_CHECKING:  # the gate imports this module in the window, which starts without NumPy
    import numpy as np
    from numpy.typing import NDArray

    from app.engine.types import PhraseFit

log = logging.getLogger(__name__)
_LEADING = " ,.;:!?-"


class CommandListener:
    """Scores short utterances' audio against the command phrases with `scorer`."""

    def __init__(self, scorer: PhraseScorer, options: CommandOptions) -> None:
        self._scorer = scorer
        self._options = options

    @classmethod
    def for_decoder(cls, decoder: object, options: CommandOptions | None) -> CommandListener | None:
        """A listener on `decoder` when commands are asked for and it can score phrases."""
        if options is None or not isinstance(decoder, PhraseScorer):
            return None
        return cls(decoder, options)

    def heard(
        self, text: str, audio: Callable[[], NDArray[np.float32]], seconds: float = math.inf, earlier: str = ""
    ) -> HeardPhrase | None:
        """The phrase the decoder scores best for an utterance written as `text`, `seconds` long;
        None where the text decides alone (too long, empty, or a command's very sound) or where
        `earlier`, the part of `text` committed before the utterance ended, is past what may be a
        command (the gate has written it as text). `audio` gives the utterance's audio (mono
        float32 16 kHz), read only when it is scored."""
        if not may_be_command(earlier, self._options):
            return None
        scored = self.scored(text, audio, seconds)
        if scored is None:
            return None
        log.debug("best command phrases for %r: %r", text, scored)
        return preferred(*scored, self._options)

    def scored(
        self, text: str, audio: Callable[[], NDArray[np.float32]], seconds: float = math.inf
    ) -> tuple[HeardPhrase, HeardPhrase | None] | None:
        """(the best phrase said alone, the best phrase that takes words heard at the start with
        its words, None where none scores `min_prefix_score`), or None where the text decides.
        After a first word that sounds like "literal", "literal" with each fixed phrase after it is
        scored too; the best such is a phrase heard at the start whose words are that phrase's."""
        words = normalised_words(text)
        literal = len(words) > 1 and sounds_like_literal(words[0], self._options)
        few = len(words) <= self._options.max_words + (1 if literal else 0)
        if not words or not (few or seconds <= self._options.max_command_s):
            return None
        found = match_command(text, self._options)
        if _text_decides(found):
            return None
        samples = audio()
        # a single word too: the live decode can write "cap london" as "Captain."
        extra = LITERAL_SCORED if literal else ()
        fits = self._scorer.score_phrases(samples, (*SCORED_PHRASES, *PREFIX_PHRASES, *extra))
        alone = _alone(fits[: len(SCORED_PHRASES)], found)
        if not few:  # "cap" and "literal" take at most a few words after them
            return alone, None
        n = len(SCORED_PHRASES) + len(PREFIX_PHRASES)
        prefix = self._heard_prefix(samples, [f.mean for f in fits[len(SCORED_PHRASES) : n]], words)
        if literal:
            prefix = _better(prefix, _heard_literal([f.mean for f in fits[n:]], self._options))
        return alone, prefix

    def _heard_prefix(self, samples: NDArray[np.float32], scores: list[float], words: list[str]) -> HeardPhrase | None:
        """The phrase that takes words heard at the start of the utterance (written as `words`,
        normalised), with the words the decoder writes after it; None where none scores
        `min_prefix_score`, or where the decoder only spells the utterance's word on. `scores`:
        those of `PREFIX_PHRASES`, in order."""
        best = max(range(len(PREFIX_PHRASES)), key=scores.__getitem__)
        if scores[best] < self._options.min_prefix_score:
            return None
        phrase = PREFIX_PHRASES[best]
        argument = self._scorer.words_after(samples, phrase[:1].upper() + phrase[1:])
        if completes_a_word(phrase, argument, words):
            return None
        return HeardPhrase(phrase, float(scores[best]), argument)


def _alone(fits: list[PhraseFit], found: CommandMatch | None) -> HeardPhrase:
    """The best of `SCORED_PHRASES` by their `fits` (in order), weighed by their tokens, with the
    mean score of the text's phrase `found` beside it where that is another one."""
    best = max(range(len(SCORED_PHRASES)), key=lambda i: fits[i].weighed)
    rival = None
    if found is not None and found.phrase.words in SCORED_PHRASES and found.phrase.words != SCORED_PHRASES[best]:
        rival = fits[SCORED_PHRASES.index(found.phrase.words)].mean
    return HeardPhrase(SCORED_PHRASES[best], fits[best].mean, text_phrase_score=rival)


def _text_decides(found: CommandMatch | None) -> bool:
    """True where the text's match needs no scoring: a command's very sound, "cap" with its
    words, "literal" with a command phrase's very words after it."""
    if found is None:
        return False
    if found.kind is CommandKind.LITERAL:
        return " ".join(normalised_words(found.argument)) in SCORED_PHRASES
    return found.distance == 0.0 or found.phrase.takes_words


def _heard_literal(scores: list[float], options: CommandOptions) -> HeardPhrase | None:
    """ "literal" and the phrase after it that scores best (`scores`: those of `LITERAL_SCORED`,
    in order), the phrase's words as its argument; None under `min_prefix_score`."""
    best = max(range(len(LITERAL_SCORED)), key=scores.__getitem__)
    if scores[best] < options.min_prefix_score:
        return None
    return HeardPhrase(LITERAL_WORD, float(scores[best]), SCORED_PHRASES[best])


def _better(a: HeardPhrase | None, b: HeardPhrase | None) -> HeardPhrase | None:
    return a if b is None or (a is not None and a.score >= b.score) else b


def decide(found: CommandMatch | None, heard: HeardPhrase | None, options: CommandOptions) -> CommandMatch | None:
    """The command an utterance is, from its text's match (`found`) and the decoder's best
    phrase (`heard`, None where nothing was scored: then the text decides alone; a phrase that
    takes words, heard at the start, applies to the words the decoder wrote after it; "literal"
    heard with a command phrase after it writes that phrase's words)."""
    if heard is not None and heard.words == LITERAL_WORD:
        return CommandMatch(LITERAL_PHRASE, heard.argument) if heard.score >= options.min_prefix_score else found
    if heard is not None and heard.words in PREFIX_PHRASES:
        return _with_words(heard, options) or found
    if heard is None or (found is not None and found.phrase.words not in SCORED_PHRASES):
        return found  # nothing scored, or a phrase the decoder does not score
    phrase = next(p for p in PHRASES if p.words == heard.words)
    rival = heard.text_phrase_score  # the decoder's score of the text's phrase, where another
    overrules = rival is not None and heard.score >= rival + options.overrule_margin
    if found is not None and _same_command(found.phrase, phrase):
        if heard.score >= options.min_confirm_score:
            return found
    elif found is not None and rival is not None and rival >= options.min_confirm_score and not overrules:
        return found  # the decoder scores the text's phrase well and another hardly better
    if heard.score < phrase_threshold(heard.words, options):
        return None
    # Where the text sounds like another command, the decoder's only where it likes it far
    # better ("Close the end." sounds like "close quote"; "close paren" scores 4 above it).
    return CommandMatch(phrase) if found is None or overrules else None


def _same_command(a: CommandPhrase, b: CommandPhrase) -> bool:
    """The same phrase, or two that write the same mark ("open paren", "open parenthesis")."""
    if a.words == b.words:
        return True
    return a.punctuation is not None and b.punctuation is not None and a.punctuation.text == b.punctuation.text


def preferred(alone: HeardPhrase, prefix: HeardPhrase | None, options: CommandOptions) -> HeardPhrase:
    """A phrase that takes words heard at the start of the utterance at `min_prefix_score` or
    more, over the best phrase said alone (the command said alone covers the whole utterance,
    so it scores far below where words follow it)."""
    return prefix if prefix is not None and prefix.score >= options.min_prefix_score else alone


def _with_words(heard: HeardPhrase, options: CommandOptions) -> CommandMatch | None:
    """ "cap" / "all caps" heard at the start, applied to the words the decoder wrote after it,
    when there are 1 to `max_argument_words` of them."""
    size = len(normalised_words(heard.argument))
    if heard.score < options.min_prefix_score or not 0 < size <= options.max_argument_words:
        return None
    words = heard.argument.lstrip(_LEADING)  # "All caps, nasa.": the comma is the decoder's
    return CommandMatch(next(p for p in PHRASES if p.words == heard.words), words)


def completes_a_word(phrase: str, argument: str, words: list[str]) -> bool:
    """True where the words after `phrase` only finish the utterance's own word: made to start
    with "Cap" on "Captain Cook", the decoder goes on with " tin Coke" ("cap" + "tin" sounds
    like "captain"); on "Captain London" said for "cap london" it writes " London"."""
    after = normalised_words(argument)
    last = len(phrase.split()) - 1
    if not after or len(words) <= last:
        return False
    return phonetic_key(phrase.split()[-1] + after[0]) == phonetic_key(words[last])

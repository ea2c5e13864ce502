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
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from app.dictation.command_match import (
    PHRASES,
    SCORED_PHRASES,
    CommandMatch,
    CommandOptions,
    match_command,
    normalised_words,
)
from app.dictation.decoder_port import PhraseScorer
from app.dictation.events import HeardPhrase

if TYPE_CHECKING:  # the gate imports this module in the window, which starts without NumPy
    import numpy as np
    from numpy.typing import NDArray

log = logging.getLogger(__name__)


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

    def heard(self, text: str, audio: Callable[[], NDArray[np.float32]]) -> HeardPhrase | None:
        """The phrase the decoder scores best for an utterance written as `text`; None where the
        text decides alone (too long, empty, or a command's very sound). `audio` gives the
        utterance's audio (mono float32 16 kHz), read only when it is scored."""
        words = normalised_words(text)
        if not 0 < len(words) <= self._options.max_words:
            return None
        found = match_command(text, self._options)
        if found is not None and (found.distance == 0.0 or found.phrase.takes_words):
            return None
        scores = self._scorer.score_phrases(audio(), SCORED_PHRASES)
        best = max(range(len(scores)), key=scores.__getitem__)
        log.debug("best command phrase for %r: %r at %.2f", text, SCORED_PHRASES[best], scores[best])
        return HeardPhrase(SCORED_PHRASES[best], float(scores[best]))


def decide(found: CommandMatch | None, heard: HeardPhrase | None,
           options: CommandOptions) -> CommandMatch | None:
    """The command an utterance is, from its text's match (`found`) and the decoder's best
    phrase (`heard`, None where nothing was scored: then the text decides alone)."""
    if heard is None or (found is not None and found.phrase.words not in SCORED_PHRASES):
        return found  # nothing scored, or a phrase the decoder does not score
    if found is not None and found.phrase.words == heard.words and heard.score >= options.min_confirm_score:
        return found
    if heard.score >= options.min_phrase_score:
        phrase = next(p for p in PHRASES if p.words == heard.words)
        return CommandMatch(phrase)
    return None

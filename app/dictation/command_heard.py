"""A command heard in a short utterance's audio, where its text alone says none (Qt-free).

A small model often writes a command said alone as other words ("Here we go." for "period",
"in your life" for "new line"), too far from the phrase for the match by sound. The decoder
itself knows better: forced through it against the utterance's audio, the phrase that was said
scores near 0 per token, any other far below. So at the end of every utterance of at most
`CommandOptions.max_words` words whose text is no command, each fixed command phrase is scored
and the best one is heard when its score reaches `CommandOptions.min_phrase_score`. It costs
one encoding of the utterance and one batched forced decode, on short utterances only.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from app.dictation.command_match import SCORED_PHRASES, CommandOptions, match_command, normalised_words
from app.dictation.decoder_port import PhraseScorer

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

    def heard(self, text: str, audio: Callable[[], NDArray[np.float32]]) -> str | None:
        """The command phrase heard in an utterance that was written as `text`, or None.

        `audio` gives the utterance's audio (mono float32 16 kHz), read only when it is scored.
        """
        words = normalised_words(text)
        if not 0 < len(words) <= self._options.max_words or match_command(text, self._options) is not None:
            return None  # dictated text, or a command the text already says
        scores = self._scorer.score_phrases(audio(), SCORED_PHRASES)
        best = int(np.argmax(scores))
        log.debug("best command phrase for %r: %r at %.2f", text, SCORED_PHRASES[best], scores[best])
        return SCORED_PHRASES[best] if scores[best] >= self._options.min_phrase_score else None

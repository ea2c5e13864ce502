"""How high each command phrase scores on speech that is not a command (Qt-free).

The decoder's score of a phrase against an utterance (mean log-probability per token) depends
on the phrase as much as on the audio: "semicolon" reaches -4.6 on "yes please", while
"period" never passes -7.9 on ordinary speech yet a slowly said "period" scores -4 to -5. One
threshold for all phrases either misses those or takes "semicolon" from ordinary words. So each
phrase is taken `CommandOptions.phrase_margin` above the best score it reached on ordinary short
utterances, never below `lowest_phrase_score` and never asking more than `min_phrase_score`.

`ORDINARY_BEST` is that best score per phrase over 28 short non-commands ("thank you", "keep
going", "cup of tea", ...) spoken by espeak-ng in 4 voices at 3 speeds (335 utterances), tiny.en
int8, greedy; `python bench/command_scores.py --calibrate` measures it again. Real speech, which
the table never saw (464 stretches of 1-4 words of two shared recordings), stays below every
threshold it gives.
"""

from __future__ import annotations

from app.dictation.command_match import CommandOptions

ORDINARY_BEST: dict[str, float] = {
    "scratch that": -5.23,
    "undo that": -4.88,
    "delete last word": -8.05,
    "comma": -5.10,
    "period": -7.89,
    "full stop": -7.29,
    "fullstop": -8.66,
    "question mark": -6.88,
    "exclamation mark": -6.31,
    "exclamation point": -6.37,
    "colon": -9.79,
    "semicolon": -4.64,
    "semi colon": -10.06,
    "ellipsis": -6.70,
    "close quote": -7.95,
    "end quote": -6.03,
    "unquote": -5.82,
    "close paren": -8.04,
    "close parenthesis": -6.90,
    "close bracket": -8.31,
    "open quote": -8.96,
    "begin quote": -8.85,
    "open paren": -7.66,
    "open parenthesis": -6.86,
    "open bracket": -8.47,
    "new line": -6.01,
    "newline": -7.84,
    "new paragraph": -8.01,
    "hyphen": -5.23,
}
"""The best score (mean log-probability per token) each scored phrase reached on ordinary speech."""


def phrase_threshold(words: str, options: CommandOptions) -> float:
    """The score at or above which the decoder's best phrase `words` is taken as that command."""
    ordinary = ORDINARY_BEST.get(words)
    if ordinary is None:  # a phrase never measured: the one threshold for all
        return options.min_phrase_score
    return min(options.min_phrase_score, max(options.lowest_phrase_score, ordinary + options.phrase_margin))

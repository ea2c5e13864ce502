"""Word and character error rates, on text normalised the way Whisper's papers score it.

English text goes through Whisper's `EnglishTextNormalizer` (lower case, no punctuation,
numbers and spellings standardised: "twenty five" and "25" compare equal, "colour" and "color"
too); other languages through its `BasicTextNormalizer` (lower case, no punctuation or
bracketed asides). Both come from the `whisper-normalizer` package, a torch-free copy of
openai/whisper's normalisers.

Rates are corpus level, in percent: the edit distances of all pairs summed, over the number of
reference words (or characters) summed. Not a mean of per-utterance rates, which would weigh
a two-word clip like a two-hundred-word one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Sequence

import numpy as np
from whisper_normalizer.basic import BasicTextNormalizer
from whisper_normalizer.english import EnglishTextNormalizer


def normalize(text: str, language: str = "en") -> str:
    """`text` as Whisper's evaluation normaliser for `language` (an ISO 639-1 code) leaves it."""
    return str(_normalizer(language)(text))


def word_error_rate(references: Sequence[str], hypotheses: Sequence[str], language: str = "en") -> float:
    """Corpus WER in percent: word edits (substitutions + deletions + insertions) over
    reference words, after `normalize`. 0.0 when both sides are empty.

    Raises ValueError when the sequences differ in length, or the references hold no words
    while the hypotheses do (the rate is undefined).
    """
    return _error_rate(references, hypotheses, lambda text: normalize(text, language).split())


def char_error_rate(references: Sequence[str], hypotheses: Sequence[str], language: str = "zh") -> float:
    """Corpus CER in percent, for languages written without spaces (zh, ja, th ...).

    Text is normalised with `normalize(text, language)`, then all whitespace is removed and
    each remaining character is one unit. Raises ValueError as `word_error_rate` does.
    """
    return _error_rate(references, hypotheses, lambda text: list("".join(normalize(text, language).split())))


def edit_distance(reference: Sequence[Hashable], hypothesis: Sequence[Hashable]) -> int:
    """Levenshtein distance between two token sequences (each edit costs 1).

    Row by row over the reference, each row computed with numpy in O(len(hypothesis)):
    insertions within a row are a running minimum, min_k<=j (row[k] + j - k).
    """
    if not reference or not hypothesis:
        return len(reference) + len(hypothesis)
    ids: dict[Hashable, int] = {}
    ref = np.array([ids.setdefault(t, len(ids)) for t in reference], dtype=np.int64)
    hyp = np.array([ids.setdefault(t, len(ids)) for t in hypothesis], dtype=np.int64)
    column = np.arange(len(hyp) + 1, dtype=np.int64)
    row = column.copy()
    for i, token in enumerate(ref, start=1):
        substitute_or_match = row[:-1] + (hyp != token)
        delete = row[1:] + 1
        candidate = np.empty_like(row)
        candidate[0] = i
        candidate[1:] = np.minimum(substitute_or_match, delete)
        row = np.minimum.accumulate(candidate - column) + column
    return int(row[-1])


def _error_rate(
    references: Sequence[str],
    hypotheses: Sequence[str],
    tokenize: Callable[[str], list[str]],
) -> float:
    if len(references) != len(hypotheses):
        raise ValueError(f"{len(references)} references but {len(hypotheses)} hypotheses: they must pair up")
    errors = 0
    reference_units = 0
    for reference, hypothesis in zip(references, hypotheses, strict=True):
        ref_units = tokenize(reference)
        errors += edit_distance(ref_units, tokenize(hypothesis))
        reference_units += len(ref_units)
    if reference_units == 0:
        if errors == 0:
            return 0.0
        raise ValueError("error rate is undefined: the references are empty after normalising")
    return 100.0 * errors / reference_units


@functools.cache
def _normalizer(language: str) -> Callable[[str], str]:
    """One normaliser per language, built once (the English one loads a spelling table)."""
    if language == "en" or language.startswith("en-"):
        english: Callable[[str], str] = EnglishTextNormalizer()
        return english
    basic: Callable[[str], str] = BasicTextNormalizer()
    return basic

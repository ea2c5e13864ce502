"""How well each of a few given phrases fits a short stretch of audio, scored by the decoder.

Each phrase is forced through the decoder after the start-of-transcript prompt with no
timestamps; its score is the mean log-probability of its tokens. All phrases go in one batch
(one row each, on one encoding of the audio), written once in lower case and once with a
capital (Whisper starts an utterance with one), and the better of the two counts, with its own
token count ("comma" is one token, "Comma" two). A phrase that
was said scores near 0; a phrase the audio does not contain scores far below -3.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from app.engine.decoding.logit_filters import log_softmax
from app.engine.runtime.whisper_runtime import CrossAttention, WhisperRuntime
from app.engine.types import PhraseFit, Task


def phrase_scores(runtime: WhisperRuntime, cross: CrossAttention, phrases: Sequence[str]) -> list[PhraseFit]:
    """How well each phrase fits the audio encoded in `cross` (batch 1): the better of lower case
    and a capital first letter by mean log-probability per token, with its token count."""
    if not phrases:
        return []
    lower = [p.lower() for p in phrases]
    capital = [p[:1].upper() + p[1:] for p in lower]
    means, tokens = _forced_scores(runtime, cross, [*lower, *capital])
    n = len(phrases)
    better = [i if means[i] >= means[n + i] else n + i for i in range(n)]
    return [PhraseFit(float(means[i]), int(tokens[i])) for i in better]


def _forced_scores(
    runtime: WhisperRuntime, cross: CrossAttention, phrases: list[str]
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """([len(phrases)] mean log-probability per token of each phrase (with its leading space),
    teacher-forced; [len(phrases)] its token count)."""
    tokenizer = runtime.tokenizer
    rows = [tokenizer.encode(" " + phrase) for phrase in phrases]
    language = "en" if runtime.facts.multilingual else None
    prompt = [*tokenizer.sot_sequence(language, Task.TRANSCRIBE), tokenizer.no_timestamps]
    # one audio for every row: the runtime shares `cross` among consecutive rows
    logits, cache = runtime.decode(np.array([prompt] * len(rows), dtype=np.int64), runtime.new_cache(len(rows)), cross)
    lengths = np.array([len(row) for row in rows])
    total = np.zeros(len(rows))
    for step in range(int(lengths.max())):
        targets = np.array([row[step] if step < len(row) else tokenizer.eot for row in rows], dtype=np.int64)
        picked = log_softmax(logits)[np.arange(len(rows)), targets]
        total += np.where(step < lengths, picked, 0.0)  # a finished row takes end-of-text, unscored
        if step + 1 < lengths.max():
            logits, cache = runtime.decode(targets[:, None], cache, cross)
    return total / lengths, lengths

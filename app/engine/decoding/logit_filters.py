"""Logit filters applied before each sampling step (openai/whisper `decoding.py` semantics).

Each filter edits `logits` [batch, n_vocab] float32 in place, given the tokens each row has
sampled so far in this window (`sampled[row]`, prompt excluded).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

NEG_INF = -np.inf


class LogitFilter(Protocol):
    """Changes the logits [rows, n_vocab] float32 in place before a token is chosen, given the
    tokens each row sampled so far."""

    def apply(self, logits: NDArray[np.float32], sampled: Sequence[Sequence[int]]) -> None: ...


class SuppressTokens:
    """Never sample these ids (the model's suppress list and non-speech specials)."""

    def __init__(self, token_ids: Sequence[int]) -> None:
        self.ids = np.array(sorted(set(token_ids)), dtype=np.int64)

    def apply(self, logits: NDArray[np.float32], sampled: Sequence[Sequence[int]]) -> None:
        if self.ids.size:
            logits[:, self.ids] = NEG_INF


class SuppressAtBegin:
    """At the first sampled position, forbid blank and end-of-text (`suppress_ids_begin`)."""

    def __init__(self, token_ids: Sequence[int]) -> None:
        self.ids = np.array(sorted(set(token_ids)), dtype=np.int64)

    def apply(self, logits: NDArray[np.float32], sampled: Sequence[Sequence[int]]) -> None:
        if self.ids.size and sampled and len(sampled[0]) == 0:
            logits[:, self.ids] = NEG_INF


class TimestampRules:
    """Whisper's timestamp grammar: timestamps come in pairs (except before end-of-text), never
    go backwards, the first token is a timestamp no later than `max_initial_index`, and a
    timestamp is forced when timestamps together outweigh the likeliest text token."""

    def __init__(self, eot: int, no_timestamps: int, timestamp_begin: int, max_initial_index: int | None) -> None:
        self.eot, self.no_timestamps, self.ts_begin = eot, no_timestamps, timestamp_begin
        self.max_initial_index = max_initial_index

    def apply(self, logits: NDArray[np.float32], sampled: Sequence[Sequence[int]]) -> None:
        logits[:, self.no_timestamps] = NEG_INF
        for row, seq in enumerate(sampled):
            self._pairing(logits[row], seq)
        if sampled and len(sampled[0]) == 0:
            logits[:, : self.ts_begin] = NEG_INF
            if self.max_initial_index is not None:
                logits[:, self.ts_begin + self.max_initial_index + 1 :] = NEG_INF
        self._force_timestamp_when_likely(logits)

    def _pairing(self, row_logits: NDArray[np.float32], seq: Sequence[int]) -> None:
        last_ts = len(seq) >= 1 and seq[-1] >= self.ts_begin
        penultimate_ts = len(seq) < 2 or seq[-2] >= self.ts_begin
        if last_ts:
            if penultimate_ts:  # a pair just closed: text (or end) must follow
                row_logits[self.ts_begin :] = NEG_INF
            else:  # an opening timestamp: the next cannot be text
                row_logits[: self.eot] = NEG_INF
        timestamps = [t for t in seq if t >= self.ts_begin]
        if timestamps:
            # Timestamps never decrease; after an unpaired one, the next must be strictly later.
            floor = timestamps[-1] if last_ts and not penultimate_ts else timestamps[-1] + 1
            row_logits[self.ts_begin : floor] = NEG_INF

    def _force_timestamp_when_likely(self, logits: NDArray[np.float32]) -> None:
        # Compared as raw logits: log-softmax subtracts one normalizer from both sides, and
        # skipping it saves a pass over the whole vocabulary per step.
        ts_total = _logsumexp(logits[:, self.ts_begin :])
        text_max = logits[:, : self.ts_begin].max(axis=-1)
        force = ts_total > text_max
        if force.any():
            logits[force, : self.ts_begin] = NEG_INF


def _logsumexp(x: NDArray[np.float32]) -> NDArray[np.float32]:
    peak = np.max(x, axis=-1, keepdims=True)
    peak = np.where(np.isfinite(peak), peak, 0.0)
    with np.errstate(divide="ignore"):
        result: NDArray[np.float32] = (np.log(np.sum(np.exp(x - peak), axis=-1)) + peak[:, 0]).astype(np.float32)
    return result


def log_softmax(logits: NDArray[np.float32]) -> NDArray[np.float32]:
    """Row-wise log-softmax [batch, n_vocab]; -inf entries stay -inf."""
    peak = np.max(logits, axis=-1, keepdims=True)
    shifted = logits - peak
    with np.errstate(divide="ignore"):
        result: NDArray[np.float32] = (shifted - np.log(np.sum(np.exp(shifted), axis=-1, keepdims=True))).astype(
            np.float32
        )
    return result

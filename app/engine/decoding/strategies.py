"""Token selection strategies for the decoding loop: greedy, sampling, beam search.

A strategy owns `rows` hypotheses. Each `step` receives filtered logits and their log-probs
[rows, n_vocab] and returns the next token of every row and, for each new row, the index of
the row it continues (so the loop can reorder the KV cache).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
from numpy.typing import NDArray


@dataclass
class DecodeCandidate:
    """One row's decoded tokens so far, their summed log-probability, and whether it ended."""

    tokens: list[int] = field(default_factory=list)
    sum_logprob: float = 0.0
    finished: bool = False
    token_logprobs: list[float] = field(default_factory=list)
    """The log-probability each of `tokens` had when chosen (word probabilities)."""


@dataclass
class StepResult:
    """One step of a strategy: each row's next token, the row it continues, and whether all are done."""

    next_tokens: NDArray[np.int64]  # [rows]
    source_rows: NDArray[np.int64]  # [rows]
    done: bool


class TokenStrategy(Protocol):
    """What the decoding loop needs of a strategy: its rows' tokens so far, one step, the end."""

    def sequences(self) -> list[list[int]]:
        """The text tokens of each of the strategy's rows, in row order."""
        ...

    def step(self, logits: NDArray[np.float32], logprobs: NDArray[np.float32]) -> StepResult:
        """`logits`, `logprobs`: float32 [rows, n_vocab] after the logit filters."""
        ...

    def finalize(self) -> list[DecodeCandidate]:
        """The candidates to rank (finished first), once the loop has stopped."""
        ...


class SamplingStrategy:
    """Independent rows: argmax at temperature 0 (greedy), else sampling from softmax(l / T)."""

    def __init__(self, eot: int, rows: int, temperature: float, seed: int = 0) -> None:
        self.eot, self.temperature = eot, temperature
        self.hyps = [DecodeCandidate() for _ in range(rows)]
        self._rng = np.random.default_rng(seed)

    def sequences(self) -> list[list[int]]:
        return [h.tokens for h in self.hyps]

    def step(self, logits: NDArray[np.float32], logprobs: NDArray[np.float32]) -> StepResult:
        if self.temperature == 0.0:
            chosen = logits.argmax(axis=-1)
        else:
            scaled = logits.astype(np.float64) / self.temperature
            probs = np.exp(scaled - scaled.max(axis=-1, keepdims=True))
            probs /= probs.sum(axis=-1, keepdims=True)
            chosen = np.array([self._rng.choice(len(p), p=p) for p in probs])
        for row, hyp in enumerate(self.hyps):
            if hyp.finished:
                chosen[row] = self.eot
                continue
            logprob = float(logprobs[row, chosen[row]])
            hyp.sum_logprob += logprob
            if chosen[row] == self.eot:
                hyp.finished = True
            else:
                hyp.tokens.append(int(chosen[row]))
                hyp.token_logprobs.append(logprob)
        rows = np.arange(len(self.hyps), dtype=np.int64)
        return StepResult(chosen.astype(np.int64), rows, all(h.finished for h in self.hyps))

    def finalize(self) -> list[DecodeCandidate]:
        return self.hyps


class BeamSearchStrategy:
    """openai/whisper's beam search: keep `beam_size` live beams, collect finished ones until
    `beam_size * patience` are done; identical candidates from identical beams merge."""

    def __init__(self, eot: int, beam_size: int, patience: float) -> None:
        self.eot, self.beam_size = eot, beam_size
        self.max_finished = max(1, round(beam_size * patience))
        self.live = [DecodeCandidate() for _ in range(beam_size)]
        self.finished: dict[tuple[int, ...], float] = {}
        self._finished_logprobs: dict[tuple[int, ...], list[float]] = {}

    def sequences(self) -> list[list[int]]:
        return [h.tokens for h in self.live]

    def step(self, logits: NDArray[np.float32], logprobs: NDArray[np.float32]) -> StepResult:
        candidates: dict[tuple[int, ...], tuple[float, int, int, float]] = {}
        for row, hyp in enumerate(self.live):
            for token in top_k(logprobs[row], self.beam_size + 1):
                logprob = float(logprobs[row, token])
                score = hyp.sum_logprob + logprob
                key = (*hyp.tokens, int(token))
                if key not in candidates or candidates[key][0] < score:
                    candidates[key] = (score, row, int(token), logprob)
        new_live: list[DecodeCandidate] = []
        tokens: list[int] = []
        sources: list[int] = []
        # Scan candidates best first until the beam is full, as openai/whisper does: an end of
        # text ranked below the beam's last live candidate is not a finished hypothesis. (Taking
        # those too fills the finished list with early endings and cuts windows short.)
        for key, (score, row, token, logprob) in sorted(candidates.items(), key=lambda kv: -kv[1][0]):
            if token == self.eot:
                if len(self.finished) < self.max_finished and key[:-1] not in self.finished:
                    self.finished[key[:-1]] = score
                    self._finished_logprobs[key[:-1]] = self.live[row].token_logprobs
                continue
            new_live.append(DecodeCandidate(list(key), score, token_logprobs=[*self.live[row].token_logprobs, logprob]))
            tokens.append(token)
            sources.append(row)
            if len(new_live) == self.beam_size:
                break
        self.live = new_live
        done = len(self.finished) >= self.max_finished or not new_live
        return StepResult(np.array(tokens, dtype=np.int64), np.array(sources, dtype=np.int64), done)

    def finalize(self) -> list[DecodeCandidate]:
        done = [
            DecodeCandidate(list(seq), score, True, self._finished_logprobs[seq])
            for seq, score in self.finished.items()
        ]
        if len(done) < self.beam_size:
            done += sorted(self.live, key=lambda h: -h.sum_logprob)[: self.beam_size - len(done)]
        return done


def top_k(row: NDArray[np.float32], k: int) -> NDArray[np.intp]:
    """Indices of the `k` largest values of `row` [n_vocab], in no particular order.

    A full partition of the 51,864-entry vocabulary costs about as much as a decoder step; the
    top few always lie within a few nats of the maximum, so partition only those and fall back to
    the full partition when too few or too many qualify."""
    k = min(k, row.size)
    peak = float(row.max())
    for margin in (10.0, 30.0):
        near = np.flatnonzero(row >= peak - margin)
        if k <= near.size <= 4096:
            return near[np.argpartition(-row[near], k - 1)[:k]]
    return np.argpartition(-row, k - 1)[:k]


def rank(hyps: list[DecodeCandidate], length_penalty: float | None) -> DecodeCandidate:
    """The best hypothesis by length-normalised log-probability (openai's MaximumLikelihoodRanker)."""

    def score(h: DecodeCandidate) -> float:
        length = len(h.tokens) + 1
        penalty = length if length_penalty is None else ((5 + length) / 6) ** length_penalty
        return h.sum_logprob / penalty

    return max(hyps, key=score)

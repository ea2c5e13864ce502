"""The decoding loop for one 30 s window: prompt prefill, then one token per step.

The prompt is fed in two calls: everything up to and including `<|startoftranscript|>` (whose
logits give the no-speech probability and, if asked, the language), then the rest of the SOT
sequence. After that each step feeds one token per row and reuses the KV cache.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from app.engine.decoding.logit_filters import LogitFilter, log_softmax
from app.engine.decoding.strategies import BeamSearchStrategy, DecodeCandidate, SamplingStrategy, TokenStrategy, rank
from app.engine.runtime.whisper_runtime import CrossAttention, KVCache, WhisperRuntime
from app.engine.types import CancelToken


@dataclass(frozen=True)
class WindowPrompt:
    """`before_sot`: [<|startofprev|>, previous text...] or empty; `sot_sequence`: [sot, lang,
    task]; `after_sot`: <|notimestamps|> and/or a forced prefix."""

    before_sot: list[int]
    sot_sequence: list[int]
    after_sot: list[int]


@dataclass(frozen=True)
class SearchConfig:
    """beam_size > 1: beam search; else `best_of` rows sampled at `temperature` (0 = greedy)."""

    temperature: float = 0.0
    beam_size: int = 1
    best_of: int = 1
    patience: float = 1.0
    length_penalty: float | None = None
    max_new_tokens: int = 224


@dataclass
class DecodeOutcome:
    """The chosen hypothesis of one window: its tokens and log-probabilities, and P(no speech)."""

    tokens: list[int]
    sum_logprob: float
    avg_logprob: float
    no_speech_prob: float
    token_logprobs: list[float] = field(default_factory=list)
    """One per token of `tokens`: its log-probability when it was chosen."""


@dataclass
class StepStats:
    """Counts from one decoding loop (tokens decoded)."""

    n_tokens: int = 0


def _as_tokens(rows: Sequence[Sequence[int]]) -> NDArray[np.int64]:
    return np.array(rows, dtype=np.int64)


class DecodingLoop:
    """Runs prefill and the step loop on a `WhisperRuntime`; checks `cancel` every step."""

    def __init__(
        self,
        runtime: WhisperRuntime,
        filters: Sequence[LogitFilter],
        no_speech_token: int,
        eot: int,
        cancel: CancelToken | None = None,
    ) -> None:
        self.runtime, self.filters = runtime, list(filters)
        self.no_speech_token, self.eot = no_speech_token, eot
        self.cancel = cancel or CancelToken()
        self.stats = StepStats()

    def prefill(
        self, cross: CrossAttention, prompt: WindowPrompt
    ) -> tuple[NDArray[np.float32], KVCache, NDArray[np.float32]]:
        """Feed the prompt to every audio of `cross`; returns (next-token logits [audios, vocab],
        cache, no-speech probability [audios])."""
        rows = cross.batch
        cache = self.runtime.new_cache(rows)
        head = [*prompt.before_sot, *prompt.sot_sequence[:1]]
        logits, cache = self.runtime.decode(_as_tokens([head] * rows), cache, cross)
        no_speech = np.exp(log_softmax(logits))[:, self.no_speech_token]
        rest = [*prompt.sot_sequence[1:], *prompt.after_sot]
        if rest:
            logits, cache = self.runtime.decode(_as_tokens([rest] * rows), cache, cross)
        return logits, cache, no_speech

    def run(self, cross: CrossAttention, prompt: WindowPrompt, search: SearchConfig) -> DecodeOutcome:
        """Decode one window (`cross.batch` 1) with `search`."""
        logits, cache, no_speech = self.prefill(cross, prompt)
        rows = search.beam_size if search.beam_size > 1 else max(1, search.best_of if search.temperature else 1)
        strategy: TokenStrategy
        if search.beam_size > 1:
            strategy = BeamSearchStrategy(self.eot, search.beam_size, search.patience)
        else:
            strategy = SamplingStrategy(self.eot, rows, search.temperature)
        logits = np.repeat(logits, rows, axis=0)  # every row shares the one audio's cross K/V
        row_to_cache = np.zeros(rows, dtype=np.int64)  # all rows continue the single prompt row
        self._steps(strategy, logits, cache, cross, row_to_cache, search.max_new_tokens)
        best = rank(strategy.finalize(), search.length_penalty)
        return _outcome(best, float(no_speech[0]))

    def run_greedy_batch(self, cross: CrossAttention, prompt: WindowPrompt, max_new_tokens: int) -> list[DecodeOutcome]:
        """Decode `cross.batch` windows at once, greedily, one row each (batched files)."""
        logits, cache, no_speech = self.prefill(cross, prompt)
        strategy = SamplingStrategy(self.eot, cross.batch, 0.0)
        self._steps(strategy, logits, cache, cross, np.arange(cross.batch, dtype=np.int64), max_new_tokens)
        return [_outcome(h, float(p)) for h, p in zip(strategy.finalize(), no_speech, strict=True)]

    def _steps(
        self,
        strategy: TokenStrategy,
        logits: NDArray[np.float32],
        cache: KVCache,
        cross: CrossAttention,
        row_to_cache: NDArray[np.int64],
        max_new_tokens: int,
    ) -> None:
        """Filter, choose and feed tokens until the strategy is done or the context is full."""
        # The decoder has n_text_ctx (448) positions: prompt and new tokens must fit in them.
        room = self.runtime.facts.dims.n_text_ctx - cache.length
        for _ in range(min(max_new_tokens, room)):
            self.cancel.raise_if_cancelled()
            for f in self.filters:
                f.apply(logits, strategy.sequences())
            result = strategy.step(logits, log_softmax(logits))
            if result.done:
                break
            indices = row_to_cache[result.source_rows]
            logits, cache = self.runtime.decode(result.next_tokens[:, None], cache, cross, indices)
            row_to_cache = np.arange(len(result.next_tokens), dtype=np.int64)
            self.stats.n_tokens += 1


def _outcome(best: DecodeCandidate, no_speech: float) -> DecodeOutcome:
    return DecodeOutcome(
        best.tokens, best.sum_logprob, best.sum_logprob / (len(best.tokens) + 1), no_speech, best.token_logprobs
    )

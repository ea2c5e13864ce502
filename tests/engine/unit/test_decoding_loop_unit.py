"""The decoding loop (app/engine/decoding/loop.py) on a scripted decoder.

The runtime is a fake on purpose: a written-down language model (`ScriptedRuntime`) whose next-
token probabilities depend on each row's whole history, so the loop's bookkeeping (the prompt in
two calls, the no-speech probability, which cache row each beam continues, the context limit,
cancelling) decides the text, and the right text is known. The real model's decoding is checked
in tests/engine/test_parity.py and test_decode_options.py.

Vocabulary: text tokens A..D = 0..3, EOT 4, SOT 5, NO_SPEECH 6, NO_TS 7.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pytest

from app.engine.decoding.loop import DecodingLoop, SearchConfig, WindowPrompt
from app.engine.runtime.whisper_runtime import CrossAttention, KVCache
from app.engine.types import CancelledError, CancelToken

A, B, C, D, EOT, SOT, NO_SPEECH, NO_TS = range(8)
N_VOCAB = 8
PROMPT = WindowPrompt(before_sot=[], sot_sequence=[SOT], after_sot=[NO_TS])
NextTokens = Callable[[int, tuple[int, ...]], dict[int, float]]
"""(audio index, text tokens so far) -> probabilities of the next token (the rest share what is left)."""


@dataclass
class _Dims:
    n_text_ctx: int


@dataclass
class _Facts:
    dims: _Dims


class ScriptedRuntime:
    """Stands in for `WhisperRuntime.new_cache` / `decode`. It keeps every cache row's token
    history, reorders it by `cache_indices` as the real KV cache is reordered, and refuses to
    run past `n_text_ctx` as the real decoder cannot."""

    def __init__(self, next_tokens: NextTokens, no_speech_prob: float = 0.1, n_text_ctx: int = 448) -> None:
        self.next_tokens, self.no_speech_prob = next_tokens, no_speech_prob
        self.facts = _Facts(_Dims(n_text_ctx))
        self.histories: list[list[int]] = []
        self.calls: list[list[list[int]]] = []  # the tokens fed per call

    def new_cache(self, batch: int) -> KVCache:
        self.histories = [[] for _ in range(batch)]
        return KVCache({}, 0, batch)

    def decode(self, tokens: np.ndarray, cache: KVCache, cross: CrossAttention,
               cache_indices: np.ndarray | None = None) -> tuple[np.ndarray, KVCache]:
        rows = tokens.shape[0]
        indices = range(rows) if cache_indices is None else cache_indices.tolist()
        self.histories = [self.histories[i] + tokens[r].tolist() for r, i in enumerate(indices)]
        assert len(self.histories[0]) <= self.facts.dims.n_text_ctx, "past the decoder's context"
        self.calls.append(tokens.tolist())
        per_audio = rows // cross.batch
        logits = np.stack([self._logits(r // per_audio, h) for r, h in enumerate(self.histories)])
        return logits, KVCache({}, cache.length + tokens.shape[1], rows)

    def _logits(self, audio: int, history: Sequence[int]) -> np.ndarray:
        if history[-1] == SOT:  # the first call: P(no speech) is read here
            probs = {NO_SPEECH: self.no_speech_prob}
        else:
            probs = self.next_tokens(audio, tuple(history[history.index(NO_TS) + 1 :]))
        rest = (1.0 - sum(probs.values())) / (N_VOCAB - len(probs))
        return np.log(np.array([probs.get(t, rest) for t in range(N_VOCAB)], dtype=np.float32))


def cross(batch: int = 1) -> CrossAttention:
    return CrossAttention({}, batch)


def greedy_trap(audio: int, text: tuple[int, ...]) -> dict[int, float]:
    """A is the likeliest first token, but every text after it is unlikely; B then EOT is best."""
    return {(): {A: 0.45, B: 0.40}, (A,): {C: 0.3, D: 0.3}, (B,): {EOT: 0.95}}.get(text, {EOT: 0.9})


def test_greedy_follows_the_likeliest_token_at_each_step() -> None:
    runtime = ScriptedRuntime(greedy_trap, no_speech_prob=0.2)
    outcome = DecodingLoop(runtime, [], NO_SPEECH, EOT).run(cross(), PROMPT, SearchConfig())  # type: ignore[arg-type]
    assert outcome.tokens[0] == A and len(outcome.tokens) == 2
    assert outcome.sum_logprob == pytest.approx(math.log(0.45 * 0.3 * 0.9), rel=1e-5)
    assert outcome.avg_logprob == pytest.approx(outcome.sum_logprob / 3)  # openai: tokens + 1
    assert outcome.token_logprobs == pytest.approx([math.log(0.45), math.log(0.3)], rel=1e-5)


def test_the_prompt_goes_in_two_calls_and_no_speech_is_read_after_the_start_token() -> None:
    runtime = ScriptedRuntime(greedy_trap, no_speech_prob=0.2)
    prompt = WindowPrompt(before_sot=[9 % N_VOCAB], sot_sequence=[SOT], after_sot=[NO_TS])
    outcome = DecodingLoop(runtime, [], NO_SPEECH, EOT).run(cross(), prompt, SearchConfig())  # type: ignore[arg-type]
    assert runtime.calls[:2] == [[[9 % N_VOCAB, SOT]], [[NO_TS]]]
    assert outcome.no_speech_prob == pytest.approx(0.2, rel=1e-5)


def test_beam_search_finds_the_likelier_text_greedy_misses() -> None:
    runtime = ScriptedRuntime(greedy_trap)
    search = SearchConfig(beam_size=2)
    outcome = DecodingLoop(runtime, [], NO_SPEECH, EOT).run(cross(), PROMPT, search)  # type: ignore[arg-type]
    assert outcome.tokens == [B]
    assert outcome.sum_logprob == pytest.approx(math.log(0.40 * 0.95), rel=1e-5)


def test_each_beam_continues_its_own_cache_row() -> None:
    """Beams swap rows here: the decoder must see each beam's own history, or the script's
    second-step answers (which depend on the first token) go to the wrong beam."""

    def by_history(audio: int, text: tuple[int, ...]) -> dict[int, float]:
        table = {(): {A: 0.5, B: 0.4}, (A,): {C: 0.3, D: 0.25}, (B,): {D: 0.9},
                 (B, D): {EOT: 0.99}, (A, C): {EOT: 0.2}, (A, D): {EOT: 0.2}}
        return table.get(text, {EOT: 0.01})

    runtime = ScriptedRuntime(by_history)
    outcome = DecodingLoop(runtime, [], NO_SPEECH, EOT).run(cross(), PROMPT, SearchConfig(beam_size=2))  # type: ignore[arg-type]
    assert outcome.tokens == [B, D]
    assert outcome.sum_logprob == pytest.approx(math.log(0.4 * 0.9 * 0.99), rel=1e-5)


def test_the_loop_stops_at_max_new_tokens_and_at_the_end_of_the_decoder_context() -> None:
    def never_ends(audio: int, text: tuple[int, ...]) -> dict[int, float]:
        return {C: 0.9}

    runtime = ScriptedRuntime(never_ends)
    loop = DecodingLoop(runtime, [], NO_SPEECH, EOT)  # type: ignore[arg-type]
    assert loop.run(cross(), PROMPT, SearchConfig(max_new_tokens=3)).tokens == [C, C, C]
    short_context = ScriptedRuntime(never_ends, n_text_ctx=7)  # the prompt takes 2 of the 7 positions
    outcome = DecodingLoop(short_context, [], NO_SPEECH, EOT).run(cross(), PROMPT, SearchConfig())  # type: ignore[arg-type]
    assert outcome.tokens == [C] * 5
    assert len(short_context.histories[0]) == 7


def test_a_cancelled_token_stops_the_loop_before_the_first_step() -> None:
    cancel = CancelToken()
    cancel.cancel()
    runtime = ScriptedRuntime(greedy_trap)
    with pytest.raises(CancelledError):
        DecodingLoop(runtime, [], NO_SPEECH, EOT, cancel).run(cross(), PROMPT, SearchConfig())  # type: ignore[arg-type]
    assert len(runtime.calls) == 2  # the prompt only


def test_a_batch_of_windows_decodes_each_audio_greedily_on_its_own_row() -> None:
    def per_audio(audio: int, text: tuple[int, ...]) -> dict[int, float]:
        script = [A, B] if audio == 0 else [D]
        return {script[len(text)] if len(text) < len(script) else EOT: 0.8}

    runtime = ScriptedRuntime(per_audio, no_speech_prob=0.3)
    outcomes = DecodingLoop(runtime, [], NO_SPEECH, EOT).run_greedy_batch(cross(2), PROMPT, 10)  # type: ignore[arg-type]
    assert [o.tokens for o in outcomes] == [[A, B], [D]]
    assert [o.no_speech_prob for o in outcomes] == pytest.approx([0.3, 0.3], rel=1e-5)


def test_the_filters_see_each_rows_tokens_and_decide_what_may_be_chosen() -> None:
    seen: list[list[list[int]]] = []

    class ForbidA:
        def apply(self, logits: np.ndarray, sampled: Sequence[Sequence[int]]) -> None:
            seen.append([list(s) for s in sampled])
            logits[:, A] = -np.inf

    runtime = ScriptedRuntime(greedy_trap)
    outcome = DecodingLoop(runtime, [ForbidA()], NO_SPEECH, EOT).run(cross(), PROMPT, SearchConfig())  # type: ignore[arg-type]
    assert outcome.tokens == [B]
    assert seen == [[[]], [[B]]]

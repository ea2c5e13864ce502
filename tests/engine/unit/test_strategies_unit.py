"""Token selection (app/engine/decoding/strategies.py) against openai/whisper's decoding.py.

No model: each step's log-probabilities are written down here, so the choice greedy, sampling
and beam search must make is known exactly. Vocabulary of these tests: text tokens 0..3,
end-of-text `EOT` = 4.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from app.engine.decoding.logit_filters import log_softmax
from app.engine.decoding.strategies import BeamSearchStrategy, DecodeCandidate, SamplingStrategy, rank, top_k

EOT = 4
N_VOCAB = 5


def logprob_rows(*rows: dict[int, float]) -> np.ndarray:
    """[rows, N_VOCAB] float32 log-probabilities: the given probabilities, the rest of the mass
    spread evenly over the other tokens."""
    out = np.empty((len(rows), N_VOCAB), dtype=np.float32)
    for r, probs in enumerate(rows):
        rest = (1.0 - sum(probs.values())) / (N_VOCAB - len(probs))
        out[r] = [math.log(probs.get(t, rest)) for t in range(N_VOCAB)]
    return out


# ---------------------------------------------------------------------------------------- greedy

def test_greedy_takes_the_argmax_of_every_row_and_sums_the_chosen_log_probabilities() -> None:
    greedy = SamplingStrategy(EOT, rows=2, temperature=0.0)
    lp = logprob_rows({2: 0.7}, {1: 0.5})
    result = greedy.step(lp, lp)
    assert result.next_tokens.tolist() == [2, 1]
    assert result.source_rows.tolist() == [0, 1]  # sampling rows never change places
    assert not result.done
    assert greedy.sequences() == [[2], [1]]
    assert greedy.hyps[0].sum_logprob == pytest.approx(math.log(0.7))
    assert greedy.hyps[0].token_logprobs == pytest.approx([math.log(0.7)])


def test_greedy_counts_the_end_of_text_log_probability_then_holds_a_finished_row_at_eot() -> None:
    """openai's GreedyDecoder adds the EOT's log-prob once, then forces EOT without adding more."""
    greedy = SamplingStrategy(EOT, rows=2, temperature=0.0)
    first = logprob_rows({EOT: 0.6}, {3: 0.9})
    assert not greedy.step(first, first).done  # row 1 is still going
    assert greedy.hyps[0].finished and greedy.hyps[0].tokens == []  # the EOT is not a text token
    assert greedy.hyps[0].sum_logprob == pytest.approx(math.log(0.6))
    second = logprob_rows({1: 0.99}, {EOT: 0.8})  # row 0 would pick 1 if it were not finished
    result = greedy.step(second, second)
    assert result.next_tokens.tolist() == [EOT, EOT]
    assert result.done
    assert greedy.hyps[0].sum_logprob == pytest.approx(math.log(0.6))  # nothing added after the end
    assert greedy.hyps[1].tokens == [3]
    assert greedy.hyps[1].sum_logprob == pytest.approx(math.log(0.9) + math.log(0.8))


def test_sampling_draws_from_softmax_of_the_logits_over_the_temperature() -> None:
    logits = np.log(np.array([[0.5, 0.3, 0.2, 1e-30, 1e-30]], dtype=np.float32))
    logits[0, 3] = -np.inf  # a suppressed token is never drawn
    rows = 20000
    for temperature in (1.0, 0.5):
        sampler = SamplingStrategy(EOT, rows, temperature, seed=1)
        batch = np.repeat(logits, rows, axis=0)
        drawn = sampler.step(batch, log_softmax(batch)).next_tokens
        expected = np.array([0.5, 0.3, 0.2]) ** (1 / temperature)
        expected /= expected.sum()
        counts = np.bincount(drawn, minlength=N_VOCAB) / rows
        assert counts[3] == 0
        np.testing.assert_allclose(counts[:3], expected, atol=0.015)


# ------------------------------------------------------------------------------------ beam search

def test_beam_search_keeps_the_best_beam_size_continuations_and_says_which_row_each_continues() -> None:
    beam = BeamSearchStrategy(EOT, beam_size=2, patience=1.0)
    # The first step: every row holds the same empty prefix, so identical candidates merge.
    start = logprob_rows({0: 0.5, 1: 0.3, 2: 0.15}, {0: 0.5, 1: 0.3, 2: 0.15})
    result = beam.step(start, start)
    assert result.next_tokens.tolist() == [0, 1]
    assert result.source_rows.tolist() == [0, 0]
    # Second step: (1, 3) at 0.3 * 0.9 beats (0, x) at 0.5 * at most 0.4, and the best
    # continuation of row 0 comes second.
    step = logprob_rows({2: 0.4, 3: 0.35}, {3: 0.9})
    result = beam.step(step, step)
    assert beam.sequences() == [[1, 3], [0, 2]]
    assert result.source_rows.tolist() == [1, 0]
    assert result.next_tokens.tolist() == [3, 2]
    assert beam.live[0].sum_logprob == pytest.approx(math.log(0.3 * 0.9), rel=1e-6)
    assert beam.live[0].token_logprobs == pytest.approx([math.log(0.3), math.log(0.9)], rel=1e-6)


def test_beam_search_finishes_a_hypothesis_at_eot_and_stops_when_beam_size_are_finished() -> None:
    beam = BeamSearchStrategy(EOT, beam_size=2, patience=1.0)
    start = logprob_rows({0: 0.55, 1: 0.4}, {0: 0.55, 1: 0.4})
    beam.step(start, start)
    ending = logprob_rows({EOT: 0.9}, {EOT: 0.8})
    result = beam.step(ending, ending)
    assert result.done
    finished = {tuple(h.tokens): h.sum_logprob for h in beam.finalize()}
    assert finished == pytest.approx({(0,): math.log(0.55 * 0.9), (1,): math.log(0.4 * 0.8)}, rel=1e-6)
    assert all(h.finished for h in beam.finalize())


def test_an_eot_ranked_below_the_last_kept_beam_does_not_finish_a_hypothesis() -> None:
    """openai stops scanning the ranked candidates once the beam is full: a lower EOT is dropped."""
    beam = BeamSearchStrategy(EOT, beam_size=2, patience=1.0)
    start = logprob_rows({0: 0.5, 1: 0.4, EOT: 0.05}, {0: 0.5, 1: 0.4, EOT: 0.05})
    result = beam.step(start, start)
    assert not result.done
    assert beam.finished == {}
    assert beam.sequences() == [[0], [1]]


def test_patience_waits_for_beam_size_times_patience_finished_hypotheses() -> None:
    beam = BeamSearchStrategy(EOT, beam_size=2, patience=2.0)
    start = logprob_rows({0: 0.5, 1: 0.4}, {0: 0.5, 1: 0.4})
    beam.step(start, start)
    # Both rows end with their best candidate; two finished of the four asked for: go on.
    ending = logprob_rows({EOT: 0.5, 2: 0.3}, {EOT: 0.5, 3: 0.3})
    assert not beam.step(ending, ending).done
    assert len(beam.finished) == 2
    assert beam.sequences() == [[0, 2], [1, 3]]
    assert beam.step(ending, ending).done  # two more: four finished
    assert len(beam.finalize()) == 4


def test_finalize_tops_up_with_the_best_live_hypotheses_when_too_few_finished() -> None:
    beam = BeamSearchStrategy(EOT, beam_size=3, patience=1.0)
    start = logprob_rows(*[{0: 0.5, 1: 0.3, 2: 0.15}] * 3)
    beam.step(start, start)
    step = logprob_rows({EOT: 0.6, 3: 0.2}, {0: 0.5}, {0: 0.5})
    beam.step(step, step)
    done = beam.finalize()
    assert len(done) == 3
    assert done[0].finished and done[0].tokens == [0]
    live_best_first = sorted(beam.live, key=lambda h: -h.sum_logprob)[:2]
    assert [h.tokens for h in done[1:]] == [h.tokens for h in live_best_first]
    assert not any(h.finished for h in done[1:])


# ------------------------------------------------------------------------------------------- rank
# Earshot's `rank` counts the end-of-text in a hypothesis' length (text tokens + 1), where
# openai's MaximumLikelihoodRanker divides by the text tokens alone (it slices the EOT off
# before ranking). The two tests below pin Earshot's rule at the point where the choice flips,
# so that changing it (to match openai) is a deliberate edit of these figures.

def _winner(others_logprob: float, length_penalty: float | None) -> list[int]:
    one_token = DecodeCandidate([1], -1.0, True)
    three_tokens = DecodeCandidate([1, 2, 3], others_logprob, True)
    return rank([one_token, three_tokens], length_penalty).tokens


def test_rank_without_a_length_penalty_divides_the_log_probability_by_the_length() -> None:
    # -1 / (1 + 1) against x / (3 + 1): three tokens win above x = -2 (openai: above -3).
    assert _winner(-1.99, None) == [1, 2, 3]
    assert _winner(-2.01, None) == [1]


def test_rank_with_a_length_penalty_uses_the_google_nmt_formula() -> None:
    """((5 + length) / 6) ** alpha; alpha 0 compares the plain sums."""
    # alpha 1: -1 / (7/6) against x / (9/6): three tokens win above x = -9/7.
    assert _winner(-1.28, 1.0) == [1, 2, 3]
    assert _winner(-1.29, 1.0) == [1]
    # alpha 0.5: -1 / sqrt(7/6) against x / sqrt(9/6): the flip is at -sqrt(9/7).
    flip = -math.sqrt(9 / 7)
    assert _winner(flip + 0.005, 0.5) == [1, 2, 3]
    assert _winner(flip - 0.005, 0.5) == [1]
    assert _winner(-1.001, 0.0) == [1]
    assert _winner(-0.999, 0.0) == [1, 2, 3]


# ------------------------------------------------------------------------------------------ top_k

@pytest.mark.parametrize("shape", ["peaked", "flat", "spread"])
def test_top_k_returns_the_k_largest_entries_whichever_path_it_takes(shape: str) -> None:
    """The fast path partitions only the entries near the peak; a flat row (more than 4096 near
    the peak) and a spread one (fewer than k within 30 nats) take the full partition."""
    rng = np.random.default_rng(7)
    n = 51864
    if shape == "peaked":
        row = rng.normal(-40.0, 3.0, n)
        row[rng.choice(n, 8, replace=False)] = rng.uniform(-3.0, 0.0, 8)
    elif shape == "flat":
        row = rng.normal(0.0, 0.5, n)
    else:
        row = np.full(n, -1000.0)
        row[:6] = [0.0, -50.0, -100.0, -150.0, -200.0, -250.0]
    row = row.astype(np.float32)
    for k in (1, 3, 6):
        got = top_k(row, k)
        assert sorted(got.tolist()) == sorted(np.argsort(-row, kind="stable")[:k].tolist())

"""The logit filters (app/engine/decoding/logit_filters.py) against openai/whisper's SuppressBlank,
SuppressTokens and ApplyTimestampRules.

No model: the filters see hand-made logits. Vocabulary of these tests: text tokens 0..9,
`EOT` 10, `NO_TS` (<|notimestamps|>) 11, then timestamps `TS + i` (i * 0.02 s) up to 29.
"""

from __future__ import annotations

import numpy as np

from app.engine.decoding.logit_filters import SuppressAtBegin, SuppressTokens, TimestampRules, log_softmax

EOT, NO_TS, TS = 10, 11, 12
N_VOCAB = 30


def flat(rows: int = 1) -> np.ndarray:
    return np.zeros((rows, N_VOCAB), dtype=np.float32)


def text_favoured(rows: int = 1) -> np.ndarray:
    """Text and EOT far likelier than any timestamp, so the forcing rule stays out of the way."""
    logits = flat(rows)
    logits[:, : EOT + 1] = 5.0
    return logits


def allowed(row: np.ndarray) -> list[int]:
    return np.flatnonzero(np.isfinite(row)).tolist()


def rules(max_initial_index: int | None = 5) -> TimestampRules:
    return TimestampRules(EOT, NO_TS, TS, max_initial_index)


def test_suppress_tokens_forbids_its_ids_on_every_row_at_every_step() -> None:
    logits = flat(2)
    SuppressTokens([3, 7, 3]).apply(logits, [[1, 2], [4, 5]])
    assert allowed(logits[0]) == allowed(logits[1]) == [t for t in range(N_VOCAB) if t not in (3, 7)]


def test_suppress_at_begin_forbids_blank_and_eot_only_at_the_first_sampled_position() -> None:
    blank = 220 % N_VOCAB  # any id: what matters is where it is forbidden
    first = flat()
    SuppressAtBegin([blank, EOT]).apply(first, [[]])
    assert not np.isfinite(first[0, [blank, EOT]]).any()
    later = flat()
    SuppressAtBegin([blank, EOT]).apply(later, [[3]])
    assert np.isfinite(later).all()


def test_the_first_token_is_a_timestamp_no_later_than_the_initial_limit() -> None:
    logits = flat()
    rules(max_initial_index=5).apply(logits, [[]])
    assert allowed(logits[0]) == list(range(TS, TS + 6))  # 0.00 .. 0.10 s; no text, no EOT
    unlimited = flat()
    rules(max_initial_index=None).apply(unlimited, [[]])
    assert allowed(unlimited[0]) == list(range(TS, N_VOCAB))


def test_notimestamps_is_never_sampled_when_timestamps_are_on() -> None:
    logits = flat()
    rules().apply(logits, [[TS, 3]])
    assert not np.isfinite(logits[0, NO_TS])


def test_an_opening_timestamp_is_followed_by_text_and_a_later_timestamp_closes_it() -> None:
    logits = text_favoured()
    rules().apply(logits, [[TS + 2, 4]])  # <|0.04|> text: the closing time must come after 0.04
    assert allowed(logits[0]) == [*range(EOT + 1), *range(TS + 3, N_VOCAB)]


def test_after_a_closing_timestamp_only_another_timestamp_or_eot_may_come() -> None:
    """A lone timestamp after text is a segment's end: the next is the next segment's start
    (which may equal it) or the end of text; never text, never an earlier time."""
    logits = text_favoured()
    rules().apply(logits, [[TS + 2, 4, TS + 7]])
    assert allowed(logits[0]) == [EOT, *range(TS + 7, N_VOCAB)]


def test_after_a_pair_of_timestamps_text_must_follow() -> None:
    logits = text_favoured()
    rules().apply(logits, [[TS + 2, 4, TS + 7, TS + 7]])
    assert allowed(logits[0]) == list(range(EOT + 1))  # text or EOT, no timestamp


def test_each_row_is_held_to_its_own_history() -> None:
    logits = text_favoured(2)
    rules().apply(logits, [[TS + 2, 4], [TS + 2, 4, TS + 9]])
    assert allowed(logits[0]) == [*range(EOT + 1), *range(TS + 3, N_VOCAB)]
    assert allowed(logits[1]) == [EOT, *range(TS + 9, N_VOCAB)]


def test_a_timestamp_is_forced_when_the_timestamps_together_outweigh_the_likeliest_text_token() -> None:
    """openai compares logsumexp(timestamp log-probs) with the largest text log-prob."""
    for text_peak, forced in ((1.5, True), (3.5, False)):
        logits = flat()
        logits[0, 4] = text_peak  # the likeliest text token
        # After <|0.00|> text, the next timestamp is later: 17 remain at logit 0, logsumexp log 17 = 2.83.
        masked = logits.copy()
        masked[0, [NO_TS, TS]] = -np.inf
        reference = log_softmax(masked)
        expected = np.logaddexp.reduce(reference[0, TS:]) > reference[0, :TS].max()
        assert expected == forced  # the figures above are on the side they claim
        rules().apply(logits, [[TS, 4, 5]])
        assert (allowed(logits[0]) == list(range(TS + 1, N_VOCAB))) == forced
        assert np.isfinite(logits[0, 4]) != forced


def test_log_softmax_rows_are_normalised_and_keep_suppressed_entries_at_minus_infinity() -> None:
    logits = np.array([[1.0, 2.0, -np.inf, 0.5], [100.0, 100.0, 100.0, 100.0]], dtype=np.float32)
    out = log_softmax(logits)
    assert out.dtype == np.float32
    np.testing.assert_allclose(np.exp(out).sum(axis=-1), 1.0, rtol=1e-6)
    assert out[0, 2] == -np.inf
    np.testing.assert_allclose(out[1], np.log(0.25), rtol=1e-6)
    np.testing.assert_allclose(out[0, 1] - out[0, 0], 1.0, rtol=1e-6)

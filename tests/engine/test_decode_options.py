"""`DecodeOptions` checks itself: a value out of range is one line naming the field, at once."""

from __future__ import annotations

import math

import pytest

from app.engine.types import MAX_BEAM_SIZE, DecodeOptions, DecodeOptionsError


def test_defaults_and_the_edges_of_each_range_are_accepted():
    DecodeOptions()
    DecodeOptions(beam_size=1, best_of=1, temperatures=(0.0,), max_new_tokens=448, batch_size=64)
    DecodeOptions(beam_size=2, patience=0.5)  # with a beam: patience without one is refused
    DecodeOptions(beam_size=MAX_BEAM_SIZE, best_of=MAX_BEAM_SIZE, length_penalty=1.0, no_speech_threshold=None,
                  log_prob_threshold=None, compression_ratio_threshold=None)


@pytest.mark.parametrize(("field", "value"), [
    ("beam_size", 0), ("beam_size", 1000), ("beam_size", 2.5), ("beam_size", True),
    ("best_of", 0), ("best_of", 17),
    ("patience", 0.0), ("patience", -1.0), ("patience", math.nan), ("patience", 100.0),
    ("temperatures", ()), ("temperatures", (0.0, -0.2)), ("temperatures", (math.inf,)),
    ("max_new_tokens", 0), ("max_new_tokens", 449),
    ("batch_size", 0), ("batch_size", 65),
    ("length_penalty", -1.0),
    ("no_speech_threshold", 1.5),
    ("log_prob_threshold", math.nan),
    ("compression_ratio_threshold", 0.0),
    ("max_initial_timestamp", -1.0),
])
def test_out_of_range_values_are_refused_with_one_line_naming_the_field(field, value):
    with pytest.raises(DecodeOptionsError) as caught:
        DecodeOptions(**{field: value})
    message = str(caught.value)
    assert field in message and "\n" not in message
    assert isinstance(caught.value, ValueError)


def test_patience_without_a_beam_is_refused_like_openai_whispers_verify_options():
    with pytest.raises(DecodeOptionsError) as caught:
        DecodeOptions(beam_size=1, patience=2.0)
    assert "patience" in str(caught.value) and "beam_size" in str(caught.value)
    assert DecodeOptions(beam_size=1, patience=1.0).patience == 1.0  # the default: no beam, no patience


def test_beam_and_best_of_together_are_accepted_the_beam_at_zero_best_of_when_sampling():
    options = DecodeOptions(beam_size=5, best_of=3, temperatures=(0.0, 0.4))
    assert (options.beam_size, options.best_of) == (5, 3)

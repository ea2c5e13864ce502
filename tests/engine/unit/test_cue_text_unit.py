"""The text shapes every cue format shares (app/engine/export/cue_text.py): SRT/VTT timestamps,
one-line cue text, WebVTT escaping."""

from __future__ import annotations

import math

import pytest

from app.engine.export.cue_text import one_line, timestamp, vtt_escape


@pytest.mark.parametrize(("seconds", "srt"), [
    (0.0, "00:00:00,000"),
    (1.5, "00:00:01,500"),
    (3661.25, "01:01:01,250"),
    (59.9996, "00:01:00,000"),  # rounds to the millisecond, carrying into the minutes
    (100 * 3600 + 0.001, "100:00:00,001"),  # hours grow past two digits
])
def test_timestamps_are_hours_minutes_seconds_and_milliseconds(seconds: float, srt: str) -> None:
    assert timestamp(seconds, ",") == srt
    assert timestamp(seconds, ".") == srt.replace(",", ".")


@pytest.mark.parametrize("seconds", [-0.5, math.nan, math.inf, -math.inf])
def test_a_time_that_is_negative_or_not_a_number_is_written_as_zero(seconds: float) -> None:
    assert timestamp(seconds, ",") == "00:00:00,000"


def test_cue_text_is_one_line_with_single_spaces() -> None:
    assert one_line("  First line\n\nsecond\tline  ") == "First line second line"
    assert one_line("\n \n") == ""


def test_vtt_escape_escapes_markup_once_and_breaks_the_cue_arrow() -> None:
    assert vtt_escape("a < b & c --> d") == "a &lt; b &amp; c --&gt; d"
    assert vtt_escape("&lt;") == "&amp;lt;"  # text that looks escaped is still text

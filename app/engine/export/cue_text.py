"""Text shapes shared by every cue format: one-line text, SRT/VTT timestamps, VTT escaping."""

from __future__ import annotations

import math


def one_line(text: str) -> str:
    """Whitespace runs (newlines included) collapsed to single spaces, ends stripped.

    A blank line inside a cue would end it early in SRT and VTT.
    """
    return " ".join(text.split())


def timestamp(seconds: float, decimal_mark: str) -> str:
    """`HH:MM:SS<mark>mmm` for SRT (`,`) and VTT (`.`); hours grow past 99 if need be."""
    millis = round(seconds * 1000) if math.isfinite(seconds) and seconds > 0 else 0
    hours, millis = divmod(millis, 3_600_000)
    minutes, millis = divmod(millis, 60_000)
    secs, millis = divmod(millis, 1000)
    return f"{hours:02d}:{minutes:02d}:{secs:02d}{decimal_mark}{millis:03d}"


def vtt_escape(text: str) -> str:
    """WebVTT cue text is markup: `&` and `<` must be escaped, `-->` must not appear."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")

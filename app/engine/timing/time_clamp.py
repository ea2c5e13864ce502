"""Times never past the audio: segment and word times clamped to [0, duration].

Whisper reads the last window padded to 30 s, so its last timestamp token can point past the
end of the file (a 54.5 s file can get a segment ending at 56.24 s); a subtitle cue that outlives
the video, or a JSON word after the end, is wrong for every consumer. The engine clamps what it
yields once the stream has ended, and the writers clamp again with the duration they are given
(a stored transcript may come from an older Earshot or from another tool).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

from app.engine.types import Segment, Word


def clamp_segments(segments: Sequence[Segment], duration_s: float) -> list[Segment]:
    """Copies of `segments` whose start/end (seconds) and words' start/end lie in [0, duration_s].

    A `duration_s` that is not a positive finite number (unknown) leaves the times as they are;
    segments already inside are returned as they are (not copied).
    """
    if not (math.isfinite(duration_s) and duration_s > 0):
        return list(segments)
    return [_clamped(segment, duration_s) for segment in segments]


def clamp_in_place(segments: Sequence[Segment], duration_s: float) -> None:
    """`clamp_segments` for segments the caller owns (the engine's, before it yields them)."""
    for original, clamped in zip(segments, clamp_segments(segments, duration_s), strict=True):
        if clamped is not original:
            original.start, original.end, original.words = clamped.start, clamped.end, clamped.words


def _clamped(segment: Segment, duration_s: float) -> Segment:
    words = segment.words
    if words is not None and any(_outside(w.start, w.end, duration_s) for w in words):
        words = [_clamped_word(w, duration_s) for w in words]
    if words is segment.words and not _outside(segment.start, segment.end, duration_s):
        return segment
    return dataclasses.replace(
        segment, start=_clip(segment.start, duration_s), end=_clip(segment.end, duration_s), words=words
    )


def _clamped_word(word: Word, duration_s: float) -> Word:
    if not _outside(word.start, word.end, duration_s):
        return word
    return dataclasses.replace(word, start=_clip(word.start, duration_s), end=_clip(word.end, duration_s))


def _outside(start: float, end: float, duration_s: float) -> bool:
    return not (0.0 <= start <= duration_s and 0.0 <= end <= duration_s)


def _clip(seconds: float, duration_s: float) -> float:
    return min(max(seconds, 0.0), duration_s) if math.isfinite(seconds) else seconds

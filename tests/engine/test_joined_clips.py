"""A long file made of the shared English clips joined end to end (forward, then in reverse)
loses and repeats no phrase against the same clips transcribed alone. Each window is
conditioned on the text before it, and tiny.en can write a short phrase of that text over
speech it then loses (prompt_copy.py). Real tiny.en at fp32, beam 5 (the defaults); the other
orders, sets and precisions are measured by bench/joined_clips.py."""

from __future__ import annotations

from earshot_testing import SHARED_SPEECH, needs_shared
from joined_clips import changed_runs, english_clips, joined, longest_change, orders

from app.engine.types import DecodeOptions

pytestmark = needs_shared


def _text(engine, audio) -> str:  # type: ignore[no-untyped-def]
    segments, _ = engine.transcribe(audio, DecodeOptions())
    return " ".join(s.text.strip() for s in segments)


def test_the_clips_joined_forward_and_back_lose_and_repeat_no_phrase(engine) -> None:  # type: ignore[no-untyped-def]
    clips = english_clips(SHARED_SPEECH)
    assert len(clips) == 10
    order = orders(len(clips))["forward+reverse"]
    audio, _ = joined(clips, order)
    alone = [_text(engine, clip.audio) for clip in clips]
    expected = " ".join(alone[i] for i in order)
    heard = _text(engine, audio)
    # A word or three differs where the context differs ("people" / "to"); a lost or copied
    # phrase is four words or more.
    assert longest_change(expected, heard) <= 3, changed_runs(expected, heard)

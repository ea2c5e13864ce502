"""A long file made of the shared English clips joined end to end (forward, then in reverse)
loses and repeats no phrase against the same clips transcribed alone. Each window is
conditioned on the text before it, and tiny.en can write a short phrase of that text over
speech it then loses (prompt_copy.py), or step over a sentence said again right after itself
(speech_gaps.py). Real tiny.en at fp32, beam 5 (the defaults); the other orders, sets and
precisions are measured by bench/long_file_wer.py."""

from __future__ import annotations

import pytest
from earshot_testing import SHARED_SPEECH, needs_shared
from joined_clips import changed_runs, english_clips, joined, longest_change, orders, words

from app.audio.vad import SileroVadModel
from app.engine.types import DecodeOptions

pytestmark = needs_shared


def _text(engine, audio, options: DecodeOptions | None = None, vad: bool = False) -> str:  # type: ignore[no-untyped-def]
    segments, _ = engine.transcribe(audio, options or DecodeOptions(), speech=SileroVadModel() if vad else None)
    return " ".join(s.text.strip() for s in segments)


@pytest.fixture(scope="module")
def speech2_alone(engine):  # type: ignore[no-untyped-def]
    """(speech2's English clips, the text of each decoded alone with the speech map)."""
    clips = english_clips(SHARED_SPEECH.parent / "speech2")
    return clips, [_text(engine, clip.audio, vad=True) for clip in clips]


def _joined_speech2(engine, speech2_alone, order_name: str):  # type: ignore[no-untyped-def]
    """(the clips joined in `order_name`, the clips-alone text in that order, the joined file's text)."""
    clips, alone = speech2_alone
    order = orders(len(clips))[order_name]
    audio, _ = joined(clips, order)
    return audio, " ".join(alone[i] for i in order), _text(engine, audio, vad=True)


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


def test_a_sentence_said_again_after_itself_in_a_long_file_is_written_each_time(engine, speech2_alone) -> None:  # type: ignore[no-untyped-def]
    """speech2's Harvard sentence is said clean, in 0 dB noise and reverberant, one after the
    other (and again in reverse at the end). With the speech map, as the app and the CLI decode
    files, tiny.en wrote the reverberant one nowhere (the window after the first two began at
    the next clip, and the seek moved past it), and wrote the noisy one nowhere either: the
    clean sentence's last word was timed over it, and on the way back the segments' timestamps
    were whole seconds off."""
    clips, _ = speech2_alone
    assert len(clips) == 11
    audio, expected, heard = _joined_speech2(engine, speech2_alone, "forward+reverse")
    # Each of the six sentences has "smooth" however the noisy one is misheard.
    assert words(heard).count("smooth") >= words(expected).count("smooth"), changed_runs(expected, heard)
    assert words(heard).count("canoe") >= words(expected).count("canoe"), changed_runs(expected, heard)
    # A misheard phrase differs in a few words; a lost sentence is 8 or 9.
    assert longest_change(expected, heard) <= 6, changed_runs(expected, heard)
    without = _text(engine, audio, DecodeOptions(fill_speech_gaps=False), vad=True)
    assert words(without).count("smooth") < words(expected).count("smooth")


def test_a_whispered_sentence_after_loud_ones_in_a_long_file_is_written(engine, speech2_alone) -> None:  # type: ignore[no-untyped-def]
    """speech2's clips in two seeded shuffles: the whispered sentence comes after a loud clip
    and 1 s of digital silence. Silero's state from the loud clip scored the whisper under 0.1,
    so no window wrote it; the speech map now forgets that state after a pause, and the whisper's
    sure pieces, each under a second, are filled as one stretch. The 0 dB Harvard sentence came
    after a pause at the start of a window, whose first word was timed over all of it."""
    _, expected, heard = _joined_speech2(engine, speech2_alone, "shuffle+shuffle")
    assert words(heard).count("whatsoever") >= words(expected).count("whatsoever") == 2, changed_runs(expected, heard)
    assert words(heard).count("smooth") >= words(expected).count("smooth") == 6, changed_runs(expected, heard)
    assert longest_change(expected, heard) <= 6, changed_runs(expected, heard)


def test_a_sentence_in_loud_noise_between_clean_ones_is_written_in_a_long_file(engine, speech2_alone) -> None:  # type: ignore[no-untyped-def]
    """speech2's clips forward, then shuffled: the Harvard sentence in 0 dB noise comes between
    two clean sentences. In the joined file the alignment spread the next clip's first words
    ("He began") or the clean sentence's last ones over it, so no stretch was left empty and
    the noisy sentence was written nowhere, at fp32 and at int8 alike. A stretch of sure speech
    that holds fewer than one word a second, words that begin or end a sentence, is now decoded
    on its own too, once, and its text is kept where it adds words the window does not have."""
    _, expected, heard = _joined_speech2(engine, speech2_alone, "forward+shuffle")
    # each of the six Harvard sentences has "smooth", however the noisy one is misheard
    assert words(heard).count("smooth") >= words(expected).count("smooth") == 6, changed_runs(expected, heard)

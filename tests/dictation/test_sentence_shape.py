"""Sentence shape across utterances through the real live path (real Silero VAD, real tiny.en).

The rules themselves are pinned with a scripted decoder in test_policy_scripted.py; these tests
play two real recordings the way a user dictates two sentences with a pause between them, and a
sentence with a pause inside it, and check the text the user gets reads as they were meant.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from dictation_helpers import replay
from earshot_testing import DATA_DIR, SHARED_SPEECH, needs_shared, read_wav

from app.audio.vad import VadOptions
from app.dictation.live_worker import DictationOptions
from app.dictation.policy import PolicyOptions

RATE = 16000


def two_sentences(pause_s: float) -> np.ndarray:
    """JFK's "... ask what you can do for your country" (tiny.en writes no period after it),
    `pause_s` of silence, then TIMIT's "She had your dark suit in greasy wash water all year"."""
    pause = np.zeros(int(pause_s * RATE), dtype=np.float32)
    jfk = read_wav(SHARED_SPEECH / "en_jfk_inaugural.wav")
    timit = read_wav(SHARED_SPEECH / "en_timit_ldc93s1.wav")
    return np.concatenate([jfk, pause, timit, pause])


@needs_shared
@pytest.mark.shared
def test_two_dictated_sentences_read_as_two_sentences(engine) -> None:  # type: ignore[no-untyped-def]
    """Not "... for your country She had your dark suit ..." (as in the benchmark's pauses session)."""
    result = replay(engine, two_sentences(1.5), DictationOptions(
        policy=PolicyOptions(), vad=VadOptions(), realtime=False))
    text = result.committed
    assert re.search(r"country[.!?] She had", text), text
    assert not re.search(r"[.!?] [a-z]", text), text  # no sentence starts lower-case
    assert text.rstrip().endswith((".", "?", "!")), text


def test_a_pause_inside_a_dictated_sentence_does_not_end_it(engine) -> None:  # type: ignore[no-untyped-def]
    """"Please send the report", 2 s of silence, "to the whole team before noon.": the rest is
    decoded in a fresh window, where tiny.en starts with a capital ("Turn the phone team") after
    writing "report." for the fragment heard alone; the text stays one sentence
    (tests/data/make_clips.sh)."""
    audio = read_wav(DATA_DIR / "espeak_pause_inside.wav")
    text = replay(engine, audio, DictationOptions(policy=PolicyOptions(), vad=VadOptions(), realtime=False)).committed
    assert re.search(r"report,? [a-z]", text), text
    assert text.count(".") == 1 and text.rstrip().endswith("."), text

"""The user's vocabulary with the real tiny.en: a surname the model does not know is written right
once it is listed, in files (beam search and greedy) and from the command line (live dictation:
tests/dictation/test_live_vocabulary.py);
listed words that were not said change nothing.

tests/data/espeak_names.wav (tests/data/make_names_clip.sh) says "The invoice from Schwarzkopf
arrived after the deadline."; without the vocabulary tiny.en writes "Schwars cup" or "Shwar's cup".
"""

from __future__ import annotations

import dataclasses

import pytest
from earshot_testing import DATA_DIR, espeak_clips, read_wav
from test_transcribe_cli import earshot

from app.engine.types import DecodeOptions
from app.engine.wer import normalize

NAMES = DATA_DIR / "espeak_names.wav"
SAID = "The invoice from Schwarzkopf arrived after the deadline."
LISTED = ("Schwarzkopf", "Okonkwo", "Kubernetes", "Reykjavik")


def text_of(engine, audio, options: DecodeOptions) -> str:  # type: ignore[no-untyped-def]
    segments, _ = engine.transcribe(audio, options)
    return "".join(s.text for s in segments).strip()


@pytest.mark.parametrize("beam", [5, 1])
def test_a_listed_surname_is_written_right(engine, beam: int) -> None:  # type: ignore[no-untyped-def]
    audio = read_wav(NAMES)
    plain = text_of(engine, audio, DecodeOptions(beam_size=beam))
    assert "Schwarzkopf" not in plain  # what makes the test worth having: the model alone misses it
    listed = text_of(engine, audio, DecodeOptions(beam_size=beam, vocabulary=LISTED))
    assert normalize(listed) == normalize(SAID), listed


def test_listed_words_not_said_change_nothing(engine) -> None:  # type: ignore[no-untyped-def]
    for clip in espeak_clips():
        audio = read_wav(DATA_DIR / clip["file"])
        options = DecodeOptions(beam_size=5)
        assert text_of(engine, audio, dataclasses.replace(options, vocabulary=LISTED)) == text_of(
            engine, audio, options), clip["file"]


def test_the_command_line_takes_a_vocabulary() -> None:
    result = earshot("transcribe", str(NAMES), "--vocabulary", "Schwarzkopf, Okonkwo")
    assert result.returncode == 0, result.stderr
    assert "Schwarzkopf" in result.stdout
    refused = earshot("transcribe", str(NAMES), "--vocabulary", "Schwarzkopf", "--vocabulary-boost", "11")
    assert refused.returncode != 0
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1 and "--vocabulary-boost" in lines[0], refused.stderr

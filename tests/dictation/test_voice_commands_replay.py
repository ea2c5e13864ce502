"""Spoken editing commands end to end: espeak-ng clips replayed through the real live worker and
tiny.en, the session's events through the command gate (tests/data/make_command_clips.sh)."""

from __future__ import annotations

from pathlib import Path

from dictation_helpers import replay
from earshot_testing import read_wav

from app.dictation.command_match import CommandKind, CommandOptions
from app.dictation.events import EventType
from app.dictation.live_worker import DictationOptions
from app.dictation.postprocess import TextPostProcessor
from app.dictation.voice_edits import CommandEvent, CommandGate, GateOutput

DATA = Path(__file__).resolve().parents[1] / "data"


def gated(engine, clip: str, listen: bool = True) -> tuple[list[GateOutput], str]:  # type: ignore[no-untyped-def]
    """Every gate output of the replayed clip, and the session's text as the user gets it;
    `listen`: the decoder scores short utterances against the commands, as in the app."""
    gate = CommandGate(TextPostProcessor())
    out: list[GateOutput] = []
    options = DictationOptions(realtime=False, commands=CommandOptions() if listen else None)
    for event in replay(engine, read_wav(DATA / clip), options).events:
        out += gate.process(event)
    return out, gate.text


def test_scratch_that_takes_back_the_sentence_before_it(engine) -> None:  # type: ignore[no-untyped-def]
    out, text = gated(engine, "espeak_scratch_that.wav")
    commands = [o for o in out if isinstance(o, CommandEvent)]
    assert [c.kind for c in commands] == [CommandKind.SCRATCH]
    assert commands[0].edit is not None and "report" in commands[0].edit.removed
    assert text == "Please call the office today."
    assert out[-1].type is EventType.SUMMARY  # type: ignore[union-attr]


def test_delete_last_word_takes_back_one_word(engine) -> None:  # type: ignore[no-untyped-def]
    out, text = gated(engine, "espeak_delete_word.wav")
    assert [o.kind for o in out if isinstance(o, CommandEvent)] == [CommandKind.DELETE_WORD]
    assert text == "Please call the office"


def test_a_command_written_as_other_words_is_heard_by_the_decoder(engine) -> None:  # type: ignore[no-untyped-def]
    # tiny.en writes "period" said alone, slowly, as "Here it is": no match by sound
    out, text = gated(engine, "espeak_period_slow.wav")
    assert "here" not in text.lower()
    assert text.startswith("Please call") and "office today." in text and text.endswith("team.")
    assert not [o for o in out if isinstance(o, CommandEvent) and o.edit is None]  # no "cannot" notice


def test_a_colon_that_semicolon_outscores_per_token_is_heard_as_a_colon(engine) -> None:  # type: ignore[no-untyped-def]
    # tiny.en writes this "colon" as "Cohen."; per token "semicolon" scores best (its "icol" and
    # "on" are near certain once " sem" is forced), by weight "colon" does
    out, text = gated(engine, "espeak_colon.wav")
    assert [o.kind for o in out if isinstance(o, CommandEvent)] == [CommandKind.PUNCTUATION]
    assert text.endswith("today:")
    assert "cohen" not in text.lower()


def test_without_the_decoder_listening_the_command_is_typed_as_words(engine) -> None:  # type: ignore[no-untyped-def]
    _, text = gated(engine, "espeak_period_slow.wav", listen=False)
    assert "here it is" in text.lower()


def test_cap_written_as_another_word_is_heard_at_the_start(engine) -> None:  # type: ignore[no-untyped-def]
    # tiny.en writes "cap london" said alone (espeak-ng en-us, 150 words a minute) as "Camp
    # London." (int8: "Captain."); made to start with "Cap", the decoder writes " London"
    _, text = gated(engine, "espeak_cap_london.wav")
    assert text.startswith("Please call the office today.")
    assert text.rstrip(".").endswith(" London") and "camp" not in text.lower() and "captain" not in text.lower()
    _, unheard = gated(engine, "espeak_cap_london.wav", listen=False)
    assert "camp" in unheard.lower() or "captain" in unheard.lower()  # the words as tiny.en wrote them


def test_literal_comma_written_as_other_words_writes_the_word_comma(engine) -> None:  # type: ignore[no-untyped-def]
    # tiny.en writes "literal comma" said alone as "little comment." or "literal comment."; the
    # decoder scores "literal" with each command phrase after it, and "literal comma" wins
    _, text = gated(engine, "espeak_literal_comma.wav")
    assert text.startswith("Please call the office today.")
    assert text.rstrip(".").lower().endswith("comma") and "comment" not in text.lower()
    _, unheard = gated(engine, "espeak_literal_comma.wav", listen=False)
    assert "comment" in unheard.lower()  # the words as tiny.en wrote them

"""The command gate: what a session's text becomes when command utterances are said in it."""

from __future__ import annotations

from app.dictation.command_match import CommandKind
from app.dictation.events import DictationEvent, EventType
from app.dictation.postprocess import PostProcessOptions, TextPostProcessor
from app.dictation.voice_edits import NOTHING_TO_TAKE_BACK, CommandEvent, CommandGate, EndEdit, GateOutput


def gate(enabled: bool = True) -> CommandGate:
    return CommandGate(TextPostProcessor(PostProcessOptions()), enabled=enabled)


def say(g: CommandGate, *utterances: str) -> list[GateOutput]:
    """Each utterance as commits of one word each, then its FINAL (as the live worker sends)."""
    out: list[GateOutput] = []
    for utterance in utterances:
        words = utterance.split(" ")
        for word in words[:-1]:
            out += g.process(DictationEvent(EventType.COMMIT, " " + word))
        out += g.process(DictationEvent(EventType.FINAL, " " + words[-1]))
    return out


def shown(outputs: list[GateOutput]) -> str:
    """What a window that applies every output shows."""
    text = ""
    for item in outputs:
        if isinstance(item, CommandEvent):
            if item.edit is not None:
                assert text.endswith(item.edit.removed)
                text = text[:len(text) - len(item.edit.removed)] + item.edit.inserted
        else:
            text += item.text
    return text


def test_scratch_that_takes_back_the_last_utterance() -> None:
    g = gate()
    out = say(g, "Hello world.", "This is wrong.", "Scratch that.", "This is right.")
    assert shown(out) == "Hello world. This is right."
    assert g.text == shown(out)
    commands = [o for o in out if isinstance(o, CommandEvent)]
    assert commands == [CommandEvent(CommandKind.SCRATCH, EndEdit(" This is wrong."))]


def test_misheard_scratch_that_still_takes_back() -> None:
    assert shown(say(gate(), "Hello world.", "Oops.", "Crash note.")) == "Hello world."


def test_scratching_the_first_utterance_leaves_no_space_before_the_next() -> None:
    assert shown(say(gate(), "Wrong start.", "Undo that.", "Right start.")) == "Right start."


def test_scratch_twice_takes_back_two_utterances() -> None:
    assert shown(say(gate(), "One.", "Two.", "Three.", "Scratch that.", "Scratch that.")) == "One."


def test_scratch_with_nothing_said_says_so() -> None:
    out = say(gate(), "Scratch that.")
    assert out == [CommandEvent(CommandKind.SCRATCH, None, NOTHING_TO_TAKE_BACK)]


def test_delete_last_word() -> None:
    g = gate()
    assert shown(say(g, "Send it to Bob today.", "Delete last word.")) == "Send it to Bob"
    assert shown(say(gate(), "Yes.", "Delete last word.", "No.")) == "No."


def test_cap_and_all_caps_write_the_word() -> None:
    out = say(gate(), "I live in", "Cap london.", "and work at", "All caps nasa.")
    assert shown(out) == "I live in London and work at NASA"


def test_a_punctuation_command_said_alone_is_matched_by_sound() -> None:
    assert shown(say(gate(), "Wait", "Come.", "then go.")) == "Wait, then go."


def test_literal_writes_the_command_words() -> None:
    assert shown(say(gate(), "Say", "Literal comma.")) == "Say comma"
    assert shown(say(gate(), "Note.", "Literal scratch that.")) == "Note. scratch that"


def test_a_long_utterance_is_released_before_it_ends() -> None:
    g = gate()
    first = g.process(DictationEvent(EventType.COMMIT, " We"))
    assert first == []  # may still be a command
    for word in (" will", " meet", " on"):
        g.process(DictationEvent(EventType.COMMIT, word))
    released = g.process(DictationEvent(EventType.COMMIT, " Friday"))
    assert [e.text for e in released if isinstance(e, DictationEvent)] == ["We will meet on Friday"]


def test_a_sentence_containing_command_words_is_text() -> None:
    assert shown(say(gate(), "Please scratch that line from the report.")) == \
        "Please scratch that line from the report."


def test_commands_off_writes_every_utterance() -> None:
    assert shown(say(gate(enabled=False), "Hello.", "Scratch that.")) == "Hello. Scratch that."


def test_the_end_mark_arriving_with_the_next_utterance_is_taken_back_with_its_own() -> None:
    g = gate()
    out = say(g, "Keep this", "Drop this")
    out += g.process(DictationEvent(EventType.COMMIT, ". Scratch"))
    out += g.process(DictationEvent(EventType.FINAL, " that."))
    assert shown(out) == "Keep this"


def test_stopping_mid_command_still_applies_it() -> None:
    g = gate()
    out = say(g, "Hello.", "Oops.")
    out += g.process(DictationEvent(EventType.COMMIT, " Scratch that."))
    out += g.process(DictationEvent(EventType.SUMMARY))
    assert shown(out) == "Hello."
    assert isinstance(out[-1], DictationEvent) and out[-1].type is EventType.SUMMARY


def test_the_end_mark_of_a_command_arriving_later_is_dropped() -> None:
    g = gate()
    out = say(g, "Keep this.", "Drop this")
    out += g.process(DictationEvent(EventType.COMMIT, ". Scratch"))
    out += g.process(DictationEvent(EventType.FINAL, " that"))
    out += g.process(DictationEvent(EventType.COMMIT, "."))  # the command's own mark, after it
    out += g.process(DictationEvent(EventType.SUMMARY))
    assert shown(out) == "Keep this."


def test_held_words_stay_visible_as_tentative_text() -> None:
    g = gate()
    assert g.process(DictationEvent(EventType.COMMIT, " Scratch")) == []
    [shown_grey] = g.process(DictationEvent(EventType.TENTATIVE, " that"))
    assert isinstance(shown_grey, DictationEvent) and shown_grey.text == " Scratch that"
    g.process(DictationEvent(EventType.FINAL, " that."))
    [after] = g.process(DictationEvent(EventType.TENTATIVE, " Next"))
    assert isinstance(after, DictationEvent) and after.text == " Next"


def test_a_mark_said_alone_replaces_the_one_whisper_guessed() -> None:
    g = gate()
    out = say(g, "Wait.", "Comma.", "then go.")
    assert [o for o in out if isinstance(o, CommandEvent)] == [
        CommandEvent(CommandKind.PUNCTUATION, EndEdit(".", ","))]
    assert shown(out) == g.text == "Wait, then go."
    assert shown(say(gate(), "Is it ready.", "Question mark.")) == "Is it ready?"
    assert shown(say(gate(), "See you.", "New line.", "Bye.")) == "See you.\nBye."  # a line break keeps it

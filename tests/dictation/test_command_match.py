"""The command matcher: whole short utterances matched by sound, dictated sentences left alone."""

from __future__ import annotations

import pytest

from app.dictation.command_match import (
    CommandKind,
    CommandOptions,
    edit_distance,
    match_command,
    phonetic_key,
)


@pytest.mark.parametrize(("heard", "kind"), [
    ("Scratch that.", CommandKind.SCRATCH),
    ("Crash note.", CommandKind.SCRATCH),  # how tiny.en wrote "scratch that"
    ("Undo that.", CommandKind.SCRATCH),
    ("Delete last word.", CommandKind.DELETE_WORD),
    ("Come.", CommandKind.PUNCTUATION),  # how tiny.en wrote "comma"
    ("New paragraph.", CommandKind.PUNCTUATION),
])
def test_command_utterances_are_recognised_by_sound(heard: str, kind: CommandKind) -> None:
    found = match_command(heard)
    assert found is not None and found.kind is kind


def test_a_misheard_comma_writes_a_comma() -> None:
    found = match_command("Come.")
    assert found is not None and found.phrase.punctuation is not None
    assert found.phrase.punctuation.text == ","


@pytest.mark.parametrize("sentence", [
    "Please scratch that line from the report.",  # the words, inside a longer sentence
    "Crash notes were filed yesterday afternoon.",
    "Hello there.",
    "Thank you.",
    "The period ended in March.",
    "Cap London is a town with a long name.",
    "I live in.",  # one edit from "hyphen" (HFN): a short key matches only exactly
    "Scratch.",  # "scratch that" with a word missing
])
def test_dictated_sentences_are_text(sentence: str) -> None:
    assert match_command(sentence) is None


def test_cap_and_all_caps_take_the_words_after_them() -> None:
    cap = match_command("Cap London.")
    caps = match_command("All caps NASA.")
    assert cap is not None and (cap.kind, cap.argument) == (CommandKind.CAP, "London.")
    assert caps is not None and (caps.kind, caps.argument) == (CommandKind.ALL_CAPS, "NASA.")
    assert match_command("Cap.") is None  # nothing to apply it to: a word


def test_cap_must_sound_exactly_like_cap() -> None:
    assert match_command("Cat food.") is None


def test_literal_escapes_any_command() -> None:
    found = match_command("Literal scratch that.")
    assert found is not None and (found.kind, found.argument) == (CommandKind.LITERAL, "scratch that.")


def test_utterances_longer_than_max_words_are_never_commands() -> None:
    assert match_command("scratch that", CommandOptions(max_words=1)) is None
    assert match_command("scratch that", CommandOptions(max_words=2)) is not None


def test_zero_distance_accepts_only_exact_sound_alikes() -> None:
    strict = CommandOptions(max_distance=0.0)
    assert match_command("Crash note.", strict) is None
    assert match_command("Scratch that!", strict) is not None


def test_phonetic_key_merges_voicing_and_drops_vowels() -> None:
    assert phonetic_key("scratch that") == "SKRX0T"
    assert phonetic_key("comma") == phonetic_key("come") == "KM"
    assert phonetic_key("Cab", vowels=True) == phonetic_key("cap", vowels=True) != phonetic_key("keep", vowels=True)
    assert edit_distance("SKRX0T", "KRXNT") == 2


def test_options_are_validated() -> None:
    with pytest.raises(ValueError, match="max_distance"):
        CommandOptions(max_distance=1.5)
    with pytest.raises(ValueError, match="max_words"):
        CommandOptions(max_words=0)


def test_dot_dot_dot_heard_with_more_dots_is_an_ellipsis() -> None:
    for heard in ("dot dot dot dot dot", "Dot, dot, dot, dot.", "dot dot dot dot dot dot"):
        found = match_command(heard)
        assert found is not None and found.phrase.words == "dot dot dot", heard
    assert match_command("dot dot") is None  # two dots are words

"""Text post-processing of committed dictation, one rule at a time.

Inputs are written the way Whisper writes them: a leading space on every word, its own guessed
punctuation and capitals, and commit deltas that may split anywhere between words.
"""

from __future__ import annotations

import pytest

from app.dictation.postprocess import (
    PostProcessOptions,
    Replacement,
    TextPostProcessor,
    parse_replacements,
)

END = None  # marks the end of an utterance in a delta list


def run(deltas: list[str | None], options: PostProcessOptions | None = None) -> str:
    processor = TextPostProcessor(options)
    out = []
    for delta in deltas:
        out.append(processor.end_utterance() if delta is END else processor.feed(delta))
    out.append(processor.end_utterance())
    return "".join(out)


# --- spoken punctuation and commands ---------------------------------------------------------


@pytest.mark.parametrize(
    ("spoken", "written"),
    [
        (" Hello comma how are you", "Hello, how are you"),
        (" It works period", "It works."),
        (" It works full stop", "It works."),
        (" Are you there question mark", "Are you there?"),
        (" Stop exclamation mark", "Stop!"),
        (" Stop exclamation point", "Stop!"),
        (" Three things colon eggs", "Three things: eggs"),
        (" Eggs semicolon milk", "Eggs; milk"),
        (" He said open quote hi close quote", 'He said "hi"'),
        (" See open paren below close paren", "See (below)"),
        (" A well hyphen known fact", "A well-known fact"),
    ],
)
def test_spoken_punctuation_becomes_the_character(spoken: str, written: str) -> None:
    assert run([spoken]) == written


def test_whisper_punctuation_around_a_spoken_command_is_replaced() -> None:
    # Whisper hears "comma" and "period" as words and punctuates them itself.
    assert run([" Hello, comma, how are you? Period."]) == "Hello, how are you."


def test_a_capital_whisper_gave_after_its_own_full_stop_is_undone_after_a_spoken_comma() -> None:
    assert run([" Hello comma. How are you?"]) == "Hello, how are you?"
    assert run([" Hello comma. I am here. NASA comma. NASA"]) == "Hello, I am here. NASA, NASA"


def test_new_line_and_new_paragraph_break_lines_and_capitalise() -> None:
    spoken = " Dear Sam, new line thanks for the call new paragraph best"
    assert run([spoken]) == "Dear Sam,\nThanks for the call\n\nBest"


def test_spoken_sentence_end_capitalises_the_next_word() -> None:
    assert run([" done period next one"]) == "done. Next one"
    no_caps = PostProcessOptions(capitalize_sentences=False)
    assert run([" done period next one"], no_caps) == "done. next one"


def test_a_command_split_across_commit_deltas_is_still_recognised() -> None:
    processor = TextPostProcessor()
    first = processor.feed(" Are you coming question")
    assert first == "Are you coming"  # "question" may start "question mark": held back
    assert processor.feed(" mark new") == "?"
    assert processor.feed(" line see you") == "\nSee you"
    assert processor.end_utterance() == ""


def test_whisper_punctuation_in_the_delta_after_a_spoken_period_is_dropped() -> None:
    """The deltas live dictation of tests/data/espeak_commands.wav commits (Whisper's own "."
    came as the start of the next delta, and the policy's end mark after the final)."""
    deltas = [" Please call", " me on", " Monday", " period", ". New", " line. See you then", END, "."]
    assert run(deltas) == "Please call me on Monday.\nSee you then."


def test_new_paragraph_leaves_no_stray_mark_at_the_start_of_the_next_paragraph() -> None:
    """The policy holds the mark after an utterance's last word and commits it with the next
    utterance's first word: after "period new paragraph" that mark is Whisper's guess for the
    spoken words, and the paragraph starts with its first word, not with ".The"."""
    deltas = [" We will meet after the meeting", " period", " new paragraph", END, ". The arrangement will", END, "."]
    assert run(deltas) == "We will meet after the meeting.\n\nThe arrangement will."
    assert run([" See below new line", END, ", then", END]) == "See below\nThen"


def test_a_held_back_word_comes_out_at_the_end_of_the_utterance() -> None:
    processor = TextPostProcessor()
    assert processor.feed(" Buy a new") == "Buy a"
    assert processor.end_utterance() == " new"


def test_a_word_that_only_starts_a_command_is_kept() -> None:
    assert run([" A new laptop and a question for you"]) == "A new laptop and a question for you"


def test_spoken_punctuation_can_be_switched_off() -> None:
    options = PostProcessOptions(spoken_punctuation=False)
    assert run([" A trial period, new line please."], options) == "A trial period, new line please."


# --- filler words -------------------------------------------------------------------------------


def test_fillers_are_removed_with_their_commas() -> None:
    assert run([" I think, um, we should, uh, go."]) == "I think we should go."


def test_a_filler_that_started_a_sentence_passes_its_capital_on() -> None:
    assert run([" Um, so we go. Erm, then we stop."]) == "So we go. Then we stop."


def test_a_filler_at_the_end_keeps_the_sentence_end() -> None:
    assert run([" We could go, um."]) == "We could go."


def test_filler_removal_can_be_switched_off() -> None:
    assert run([" Um, so we go."], PostProcessOptions(remove_fillers=False)) == "Um, so we go."


# --- spacing between utterances -----------------------------------------------------------------


def test_no_space_before_the_first_words_and_one_between_utterances() -> None:
    assert run([" First one.", END, " Second one.", END, "Third one."]) == "First one. Second one. Third one."


def test_space_at_start_continues_after_existing_text() -> None:
    assert run([" More words."], PostProcessOptions(space_at_start=True)) == " More words."


def test_utterances_can_be_joined_without_a_space() -> None:
    options = PostProcessOptions(space_between_utterances=False)
    assert run([" 你好。", END, " 再见。"], options) == "你好。再见。"


def test_trailing_space_ends_each_utterance_with_one_space() -> None:
    options = PostProcessOptions(trailing_space=True)
    processor = TextPostProcessor(options)
    assert processor.feed(" First.") == "First"
    assert processor.end_utterance() == ". "
    assert processor.feed(" Second.") + processor.end_utterance() == "Second. "


def test_no_space_after_a_spoken_new_line_even_across_utterances() -> None:
    assert run([" Hello new line", END, " World"]) == "Hello\nWorld"


def test_reset_starts_a_new_session_without_a_leading_space() -> None:
    processor = TextPostProcessor()
    processor.feed(" One.")
    processor.end_utterance()
    processor.reset()
    assert processor.feed(" Two.") + processor.end_utterance() == "Two."


# --- replacements -------------------------------------------------------------------------------


def test_replacements_match_whole_words_in_any_case_and_keep_punctuation() -> None:
    options = PostProcessOptions(replacements=(Replacement("ear shot", "Earshot"), Replacement("my mail", "me@x.org")))
    assert run([" Ear shot is fine, send it to my mail."], options) == "Earshot is fine, send it to me@x.org."
    assert run([" Yearshot stays"], options) == "Yearshot stays"


def test_a_replacement_split_across_deltas_is_found() -> None:
    options = PostProcessOptions(replacements=(Replacement("ear shot", "Earshot"),))
    assert run([" I use ear", " shot daily"], options) == "I use Earshot daily"


def test_a_replacement_overrides_a_spoken_command() -> None:
    options = PostProcessOptions(replacements=(Replacement("period", "period"),))
    assert run([" A trial period"], options) == "A trial period"


def test_parse_replacements_reads_one_pair_per_line() -> None:
    text = "# mine\near shot -> Earshot\n\nsign off -> Best,\\nSam\n"
    assert parse_replacements(text) == (Replacement("ear shot", "Earshot"), Replacement("sign off", "Best,\nSam"))
    with pytest.raises(ValueError, match="line 2"):
        parse_replacements("a -> b\nno arrow here")


# --- text from other languages -------------------------------------------------------------------


def test_non_ascii_text_passes_through_intact() -> None:
    assert run([" Grüße aus Köln comma", " ça va question mark"]) == "Grüße aus Köln, ça va?"

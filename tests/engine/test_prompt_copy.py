"""The check that finds a window Whisper decoded as a copy of its prompt (app/engine/transcribe/prompt_copy.py).
The real case, a long file whose second window copied the first one's sentences, is
tests/archive/test_folder_runs.py's long file (it failed on an AVX-512 VNNI Xeon without the check)."""

from __future__ import annotations

from app.engine.transcribe.prompt_copy import (
    COPIED_RUN_WORDS,
    FILE_COPIED_RUN_WORDS,
    FILE_COPY_OPENING_WORDS,
    copies_prompt,
)

PROMPT = (" Please move the meeting to Thursday afternoon. I need $300 for the new laptop. Our team has"
          " 12 people and two of them work from home. Good morning everyone.")


def test_a_window_that_repeats_sentences_of_its_prompt_is_found() -> None:
    copied = " I need $300 for the new laptop. Our team has 12 people and two of them work from home."
    assert copies_prompt(copied, PROMPT)
    assert copies_prompt(copied.upper().replace(".", "!"), PROMPT)  # case and punctuation blind


def test_new_speech_and_short_common_phrases_are_not() -> None:
    assert not copies_prompt(" Today we will review the budget for the next quarter.", PROMPT)
    assert not copies_prompt(" Good morning everyone. Let us start.", PROMPT)  # 3 words in common
    seven = " ".join(PROMPT.split()[:COPIED_RUN_WORDS - 1])
    assert not copies_prompt(seven + " and something else entirely new here", PROMPT)
    assert copies_prompt(" ".join(PROMPT.split()[:COPIED_RUN_WORDS]), PROMPT)
    assert not copies_prompt(PROMPT, "")  # no prompt, nothing to copy


def test_in_a_file_a_short_phrase_copied_over_speech_is_found() -> None:
    """A window that hears "one two three" twice wrote only the laughter clip's words, which
    the window before it ended with."""
    before = " Montreal. First. A liner. Printing in the only sense with which we are at present concerned"
    opening = FILE_COPY_OPENING_WORDS
    assert copies_prompt(" Montreal. First. A liner.", before, FILE_COPIED_RUN_WORDS, opening)
    assert copies_prompt(" And then Montreal. First. A liner.", before, FILE_COPIED_RUN_WORDS, opening)
    assert not copies_prompt(" Montreal. First. A liner.", before)  # dictation's run is longer
    assert not copies_prompt(" 1, 2, 3. 1, 2, 3. Printing in the", before, FILE_COPIED_RUN_WORDS, opening)
    # The same phrase said again later in the window is speech: no run opens it.
    assert not copies_prompt(" 1, 2, 3. 1, 2, 3. Montreal. First. A liner.", before, FILE_COPIED_RUN_WORDS, opening)

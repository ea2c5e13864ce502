"""TypedRecord: backspaces only for the text Earshot typed into the window that still has the focus."""

from __future__ import annotations

from app.desktop.typing import TakeBack, TakeBackRefusal, TypedRecord


def test_text_typed_into_the_focused_window_is_taken_back_with_one_backspace_a_character() -> None:
    record = TypedRecord()
    record.typed(7, "Hello.")
    record.typed(7, " Wrong words.")
    assert record.take_back(7, " Wrong words.") == TakeBack(13)
    assert record.text == "Hello."
    assert record.take_back(7, "Hello.", "Hi.") == TakeBack(6, "Hi.")


def test_another_window_is_never_touched() -> None:
    record = TypedRecord()
    record.typed(7, "Hello.")
    assert record.take_back(8, "Hello.").refused is TakeBackRefusal.OTHER_WINDOW
    assert record.take_back(None, "Hello.").refused is TakeBackRefusal.UNKNOWN_WINDOW


def test_once_the_focus_left_the_window_its_text_stays() -> None:
    record = TypedRecord()
    record.typed(7, "Hello.")
    record.focus_seen(7)
    assert record.text == "Hello."  # still there: nothing else could have been typed
    record.focus_seen(9)
    record.focus_seen(7)
    assert record.take_back(7, "Hello.").refused is TakeBackRefusal.FOCUS_LEFT


def test_typing_into_a_new_window_starts_a_new_record() -> None:
    record = TypedRecord()
    record.typed(7, "First.")
    record.typed(9, "Second.")
    assert record.take_back(9, " First. Second.").refused is TakeBackRefusal.CHANGED
    assert record.take_back(9, "Second.") == TakeBack(7)

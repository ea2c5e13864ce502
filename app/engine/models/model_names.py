"""THE rule for a model's name: one plain folder name under models/ (and in the conversion
cache's keys), and how any folder's name is made to follow it."""

from __future__ import annotations

from app.engine.convert.weights import ModelFormatError

MAX_NAME_LENGTH = 64
NAME_CHARS = "._+-"  # with letters and digits: tiny.en, large-v3, distil-large-v3, my_model+fr


def model_name_problem(name: str) -> str | None:
    """Why `name` cannot name a folder under models/ (None if it can): THE rule for every name.

    A name is one plain folder name: no separators, no `.`/`..`, no leading dot (staging
    folders start with one), no control or glob characters, at most MAX_NAME_LENGTH characters."""
    if not name:
        return "it is empty"
    if len(name) > MAX_NAME_LENGTH:
        return f"it is longer than {MAX_NAME_LENGTH} characters"
    if not name[0].isalnum():
        return "it must start with a letter or a digit"
    if not all(c.isalnum() or c in NAME_CHARS for c in name):
        return f"use only letters, digits and {' '.join(NAME_CHARS)}"
    return None


def check_model_name(name: str) -> str:
    """`name`, or a ModelFormatError saying in one line why it is not a valid model name."""
    if problem := model_name_problem(name):
        printable = name.encode("unicode_escape").decode("ascii")[:80]
        raise ModelFormatError(f"invalid model name {printable!r}: {problem}")
    return name


def cache_name(name: str) -> str:
    """A model folder's name (any name, for `--model PATH`) made to follow the model-name rule."""
    cleaned = "".join(c if c.isalnum() or c in NAME_CHARS else "_" for c in name)[:MAX_NAME_LENGTH]
    return check_model_name(cleaned if cleaned[:1].isalnum() else f"m{cleaned}"[:MAX_NAME_LENGTH])

"""Undo and redo of the user's own edits of the live transcript (Qt-free).

Qt's undo stack cannot be used: it also records the commits that arrive while the user edits,
so Ctrl+Z would take dictated text back. Here only the user's changes are recorded, each as
the text it replaced and the text it put there, at a position in the document. Commits only
ever go after all committed text, so a recorded position still points at the same text when a
commit has arrived since; before an edit is applied its text is checked, and a stack that no
longer fits the document is dropped rather than applied to the wrong words.

Positions are UTF-16 code units, as QTextDocument counts them.
"""

from __future__ import annotations

from dataclasses import dataclass

MERGE_TYPING = True
"""Consecutive typed characters are one undo step (as in every editor), not one per key."""


@dataclass(frozen=True)
class TextEdit:
    """At `start`, `before` was replaced by `after` (UTF-16 positions)."""

    start: int
    before: str
    after: str

    def inverse(self) -> TextEdit:
        return TextEdit(self.start, self.after, self.before)


@dataclass(frozen=True)
class Cleared:
    """The whole committed text was cleared: `text` and each session's (entry id, start)."""

    text: str
    sessions: tuple[tuple[int, int], ...]


Step = TextEdit | Cleared


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def difference(old: str, new: str) -> TextEdit | None:
    """The one changed stretch between two versions of the document (None when equal)."""
    if old == new:
        return None
    prefix = 0
    limit = min(len(old), len(new))
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]:
        suffix += 1
    return TextEdit(utf16_len(old[:prefix]), old[prefix : len(old) - suffix], new[prefix : len(new) - suffix])


class EditHistory:
    """The undo and redo stacks of the user's edits."""

    def __init__(self) -> None:
        self.undo_steps: list[Step] = []
        self.redo_steps: list[Step] = []

    @property
    def can_undo(self) -> bool:
        return bool(self.undo_steps)

    @property
    def can_redo(self) -> bool:
        return bool(self.redo_steps)

    def record(self, step: Step) -> None:
        """A new edit by the user: it joins the last one when both are plain typing next to
        each other; redo is no longer possible."""
        self.redo_steps.clear()
        last = self.undo_steps[-1] if self.undo_steps else None
        if (
            MERGE_TYPING
            and isinstance(step, TextEdit)
            and isinstance(last, TextEdit)
            and _typing(step)
            and not last.before
            and step.start == last.start + utf16_len(last.after)
            and not last.after.endswith((" ", "\n"))
        ):
            self.undo_steps[-1] = TextEdit(last.start, last.before, last.after + step.after)
            return
        self.undo_steps.append(step)

    def forget(self) -> None:
        self.undo_steps.clear()
        self.redo_steps.clear()


def _typing(step: TextEdit) -> bool:
    return not step.before and len(step.after) == 1

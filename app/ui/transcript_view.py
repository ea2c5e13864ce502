"""The live transcript: committed text in the normal colour, tentative text after it in
grey italics (transcript_text.py). It follows new text unless the user has scrolled up to read.

Once committed text is shown the user may edit it, also while dictating: the grey tentative
tail is always the end of the document and the text cursor is kept out of it, so new commits
go after everything the user wrote (never over it). Each dictation session starts a new
paragraph; `session_texts` gives each session's text as it reads now (edits included), so the
edits can be saved to that session's history entry.

Undo and redo (Ctrl+Z, Ctrl+Shift+Z / Ctrl+Y) take back and redo the user's own edits and a
Clear (`app.ui.edit_history`), never the commits that arrived meanwhile.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QFont, QKeyEvent, QKeySequence, QTextCursor
from PySide6.QtWidgets import QFrame, QWidget

from app.ui.edit_history import Cleared, EditHistory, Step, TextEdit, difference, utf16_len
from app.ui.tentative_tail import TentativeTailEdit
from app.ui.transcript_text import SessionAnchors, committed_format, recolour, tentative_format

PLACEHOLDER = (
    "Press Record (Ctrl+R) and start speaking — your words appear here.\n\n"
    "Drop audio or video files anywhere on this window to transcribe them."
)
PARAGRAPH = "\n\n"
"""Between the texts of two dictation sessions (what "new paragraph" writes too)."""


class TranscriptView(TentativeTailEdit):
    edited = Signal()  # the user changed the committed text (not emitted for new commits)
    clearing = Signal()  # clear_all is about to empty the view (edits not yet saved: save them now)
    undo_changed = Signal()  # what Undo and Redo can do has changed

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setAccessibleName("Transcript")
        self.setAccessibleDescription("Committed dictation text (editable), then tentative text in italics")
        self.setPlaceholderText(PLACEHOLDER)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setUndoRedoEnabled(False)  # Qt's undo would take back commits too: `edits` has only the user's
        self.document().setDocumentMargin(22)
        font = QFont(self.font())
        font.setPointSizeF(max(12.0, font.pointSizeF() * 1.3))
        self.setFont(font)
        self._tentative = ""
        self._tail = 0  # length of the tentative tail at the end of the document (UTF-16 units)
        self._rendering = False
        self._new_session: int | None = None  # entry id of a session whose first text is to come
        self._sessions = SessionAnchors(self.document())  # entry id, where its text starts
        self.edits = EditHistory()
        self._shadow = ""  # the document's raw text after the last change (to see what an edit changed)
        self._replaying = False  # an undo or redo is changing the document: not a new edit
        self._set_editable(False)
        self.document().contentsChanged.connect(self._on_contents_changed)

    @property
    def committed_text(self) -> str:
        """Everything before the tentative tail, with the user's edits."""
        return self._text(0, self._tail_start())

    @property
    def tentative_text(self) -> str:
        return self._tentative

    def start_session(self, entry_id: int) -> None:
        """The next committed text starts a new paragraph, the text of history entry `entry_id`."""
        self._new_session = entry_id

    def append_committed(self, delta: str) -> None:
        """Add text that will never change, after all committed and edited text."""
        opening = self._new_session is not None
        if opening or not self.committed_text.strip():
            delta = delta.lstrip()
        if not delta:
            return
        separator = PARAGRAPH if opening and self.committed_text.strip() else ""
        self._tentative = self._tentative.removeprefix(PARAGRAPH) if opening else self._tentative
        self._render(separator)
        if opening:
            assert self._new_session is not None
            self._sessions.add(self._new_session, self._tail_start())
            self._new_session = None
        self._render(delta)
        self._set_editable(True)

    def take_back_end(self, removed: str, inserted: str = "") -> bool:
        """Replace `removed` at the end of the committed text by `inserted` (a spoken "scratch
        that"); like a commit it is not the user's edit, so Undo does not bring it back. False
        when the text no longer ends with it (the user edited there): nothing changes then."""
        committed = self.committed_text
        # a session's first words lose their leading space here
        target = removed if committed.endswith(removed) else removed.lstrip()
        if not target or not committed.endswith(target):
            return False
        end = self._tail_start()
        cursor = QTextCursor(self.document())
        cursor.setPosition(end - utf16_len(target))
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        self._rendering = True
        cursor.insertText(inserted, committed_format(self.palette()))
        self._rendering = False
        self._shadow = self.document().toRawText()
        return True

    def set_tentative(self, text: str) -> None:
        committed = self.committed_text
        if self._new_session is not None and committed.strip() and text.strip():
            text = PARAGRAPH + text.lstrip()  # where the session's first words will go
        elif not committed.strip() or self._new_session is not None:
            text = text.lstrip()
        elif text and not text[0].isspace() and not committed[-1].isspace():
            text = " " + text
        if text != self._tentative:
            self._tentative = text
            self._render("")

    def clear_all(self) -> None:
        """Empty the view; Undo brings the cleared text back (the History keeps it anyway)."""
        self.clearing.emit()
        text = self.committed_text
        if text.strip():
            self.edits.record(Cleared(text, tuple(self._sessions.positions())))
        self._rendering = True
        self._tentative, self._tail = "", 0
        self._sessions.reset()
        self.clear()
        self._rendering = False
        self._shadow = self.document().toRawText()
        self._set_editable(False)
        self.undo_changed.emit()

    def undo_edit(self) -> None:
        """Take back the user's last edit (or Clear); commits stay."""
        self._replay(self.edits.undo_steps, self.edits.redo_steps, undo=True)

    def redo_edit(self) -> None:
        self._replay(self.edits.redo_steps, self.edits.undo_steps, undo=False)

    def _replay(self, source: list[Step], target: list[Step], undo: bool) -> None:
        if not source:
            return
        step = source.pop()
        if isinstance(step, Cleared):
            if undo:
                self._restore(step)
                target.append(step)
            else:
                redo = list(self.edits.redo_steps)
                self.clear_all()  # records the clear again, which empties redo: keep the rest
                self.edits.redo_steps[:] = redo
        elif self._apply(step.inverse() if undo else step):
            target.append(step)
        else:  # the text is no longer what the step changed: never apply it to other words
            self.edits.forget()
        self.undo_changed.emit()

    def _apply(self, edit: TextEdit) -> bool:
        """Replace `edit.before` at `edit.start` by `edit.after`; False when it is not there."""
        raw = self.document().toRawText().encode("utf-16-le")
        end = edit.start + utf16_len(edit.before)
        if end > self._tail_start() or raw[2 * edit.start : 2 * end].decode("utf-16-le") != edit.before:
            return False
        cursor = QTextCursor(self.document())
        cursor.setPosition(edit.start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        self._replaying = True
        cursor.insertText(edit.after, committed_format(self.palette()))
        self._replaying = False
        cursor.setPosition(edit.start + utf16_len(edit.after))
        self.setTextCursor(cursor)
        return True

    def _restore(self, cleared: Cleared) -> None:
        """Put cleared text back before whatever was committed since (a new session's text)."""
        later = self.committed_text
        shift = utf16_len(cleared.text + (PARAGRAPH if later.strip() else ""))
        sessions = [*cleared.sessions, *self._sessions.positions(shift)]
        if later.strip():
            self.edits.redo_steps.clear()  # their positions were in the text without the cleared part
        self._rendering = True
        self.clear()
        self._tail = 0
        self._rendering = False
        self._replaying = True
        cursor = QTextCursor(self.document())
        cursor.insertText(cleared.text + (PARAGRAPH + later if later.strip() else ""), committed_format(self.palette()))
        self._replaying = False
        self._render("")
        self._sessions.reset(sessions)
        self._set_editable(True)

    def session_texts(self) -> list[tuple[int, str]]:
        """(history entry id, its text as shown now) for each session in the view."""
        out = []
        for entry_id, start, end, last in self._sessions.spans(self._tail_start()):
            text = self._text(start, end)
            out.append((entry_id, text if last else text.removesuffix(PARAGRAPH)))
        return out

    # --- rendering -------------------------------------------------------------------

    def _render(self, commit: str) -> None:
        """Insert `commit` before the tentative tail and redraw the tail."""
        bar = self.verticalScrollBar()
        following = bar.value() >= bar.maximum() - 4
        self._rendering = True
        cursor = QTextCursor(self.document())
        cursor.setPosition(self._tail_start())
        cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()
        if commit:
            cursor.insertText(commit, committed_format(self.palette()))
        if self._tentative:
            cursor.insertText(self._tentative, tentative_format(self.palette()))
        self._tail = utf16_len(self._tentative)
        self._rendering = False
        self._shadow = self.document().toRawText()
        if following:
            bar.setValue(bar.maximum())

    def _text(self, start: int, end: int) -> str:
        cursor = QTextCursor(self.document())
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        return cursor.selectedText().replace("\u2029", "\n").replace("\u2028", "\n")

    def _recolour(self) -> None:
        self._rendering = True
        recolour(self.document(), self._tail_start(), self.palette())
        self._rendering = False

    # --- editing ---------------------------------------------------------------------

    def _set_editable(self, editable: bool) -> None:
        self.setReadOnly(not editable)
        flags = (
            Qt.TextInteractionFlag.TextEditorInteraction
            if editable
            else (Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        )
        self.setTextInteractionFlags(flags)

    def _on_contents_changed(self) -> None:
        if self._rendering:
            return
        raw = self.document().toRawText()
        step, self._shadow = difference(self._shadow, raw), raw
        if step is not None and not self._replaying:
            self.edits.record(step)
            self.undo_changed.emit()
        self.edited.emit()

    def keyPressEvent(self, e: QKeyEvent) -> None:
        """Undo and redo take back the user's edits only; other keys stay out of the tentative
        tail (tentative_tail.py)."""
        if e.matches(QKeySequence.StandardKey.Undo):
            self.undo_edit()
            return
        if e.matches(QKeySequence.StandardKey.Redo):
            self.redo_edit()
            return
        super().keyPressEvent(e)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._recolour()

"""Spoken editing commands as the user sees them: after "scratch that" the window, the History
entry and the focused app all read the same, without the sentence taken back.

The end-to-end tests replay committed espeak clips (tests/data/make_command_clips.sh) as the
microphone through the real worker and tiny.en; the focused app is the recording keyboard of
test_dictation_errors, with a fixed window id standing for the focused X11 window."""

from __future__ import annotations

from gui_helpers import DATA, wait_model_ready
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from test_dictation_errors import RecordingKeyboard
from test_dictation_text import wait_idle
from test_dictation_window import dictate

from app.controller.app_controller import AppController, AppParts
from app.controller.desktop.integration import DesktopIntegration, DesktopOptions
from app.controller.desktop.output_router import BACKSPACE, OutputOptions, OutputRouter
from app.desktop.typing import OutputError, OutputMode, OutputWorker, TakeBackRefusal
from app.ui.main_window import MainWindow
from app.ui.spoken_edits import EDITED_THERE
from app.ui.transcript_view import TranscriptView

SCRATCH = DATA / "espeak_scratch_that.wav"  # two sentences, then "scratch that"
DELETE_WORD = DATA / "espeak_delete_word.wav"  # "Please call the office today." then "delete last word"


def typed_result(typed: list[str]) -> str:
    """What the focused app's text reads after the typed pieces and backspaces."""
    text = ""
    for piece in typed:
        text = text[:-1] if piece == f"<{BACKSPACE}>" else text + piece
    return text


def window_typing_elsewhere(qtbot, parts: AppParts):  # type: ignore[no-untyped-def]
    window = MainWindow(AppController(parts))
    qtbot.addWidget(window)
    window.controller.start()
    wait_model_ready(qtbot, window)
    keyboard = RecordingKeyboard()
    router = OutputRouter(OutputOptions(OutputMode.TYPE), window_id=lambda: 42,
                          worker_factory=lambda on_error: OutputWorker(on_error, lambda: keyboard))
    DesktopIntegration(window.controller.dictation, DesktopOptions(OutputOptions(OutputMode.TYPE)), router=router)
    assert QGuiApplication.focusWindow() is None  # another app has the focus
    return window, keyboard, router


def test_scratch_that_takes_the_sentence_back_in_the_window_the_history_and_the_app(qtbot, parts) -> None:
    window, keyboard, router = window_typing_elsewhere(qtbot, parts)
    dictate(qtbot, window, SCRATCH)
    wait_idle(qtbot, window)

    shown = window.transcript.committed_text
    [entry] = window.controller.history.search()
    assert router.wait_idle(10)
    assert shown == entry.text == typed_result(keyboard.typed) == "Please call the office today."
    assert f"<{BACKSPACE}>" in keyboard.typed  # the app got the sentence, then lost it
    assert "report" in "".join(keyboard.typed)
    assert [s.text.strip() for s in entry.segments] == ["Please call the office today."]


def test_delete_last_word_in_the_window_and_the_history(qtbot, parts) -> None:
    window, keyboard, router = window_typing_elsewhere(qtbot, parts)
    dictate(qtbot, window, DELETE_WORD)
    wait_idle(qtbot, window)

    [entry] = window.controller.history.search()
    assert router.wait_idle(10)
    assert window.transcript.committed_text == entry.text == typed_result(keyboard.typed) == "Please call the office"


def test_take_back_is_not_an_undoable_edit_and_never_touches_the_users_words(qtbot) -> None:
    view = TranscriptView()
    qtbot.addWidget(view)
    view.start_session(1)
    view.append_committed("Hello world.")
    view.append_committed(" Wrong words.")
    assert view.take_back_end(" Wrong words.")
    assert view.toPlainText() == "Hello world."
    assert not view.edits.can_undo  # a voice command, like a commit, is not the user's edit

    view.append_committed(" Second try.")
    view.setFocus()
    view.moveCursor(view.textCursor().MoveOperation.End)
    qtbot.keyClicks(view, "!")  # the user edited the words a command would take back
    assert not view.take_back_end(" Second try.")
    assert view.toPlainText() == "Hello world. Second try.!"
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert view.toPlainText() == "Hello world. Second try."  # undo still takes back the user's own edit


def test_the_window_says_when_it_cannot_take_back(qtbot, parts) -> None:
    from app.dictation.command_match import CommandKind
    from app.dictation.voice_edits import NOTHING_TO_TAKE_BACK, CommandEvent, EndEdit

    window = MainWindow(AppController(parts))
    qtbot.addWidget(window)
    window.show()
    dictation = window.controller.dictation
    dictation.command.emit(CommandEvent(CommandKind.SCRATCH, None, NOTHING_TO_TAKE_BACK))
    assert window.notice.isVisible() and window.notice.label.text() == NOTHING_TO_TAKE_BACK
    dictation.command.emit(CommandEvent(CommandKind.SCRATCH, EndEdit(" never shown.")))
    assert window.notice.label.text() == EDITED_THERE


class StoppingKeyboard(RecordingKeyboard):
    """Types the first half of each text, then stops as XTestKeyboard does when the focus moves to
    another window mid-text (tests/desktop/test_keyboard_x11.py runs the real one)."""

    def type_text(self, text: str) -> None:
        super().type_text(text[: len(text) // 2])
        raise OutputError("Typing stopped part way: the focus moved to another window")


def test_after_typing_stopped_part_way_scratch_that_sends_no_backspace(qtbot) -> None:  # type: ignore[no-untyped-def]
    from app.dictation.command_match import CommandKind
    from app.dictation.voice_edits import CommandEvent, EndEdit

    keyboard = StoppingKeyboard()
    router = OutputRouter(OutputOptions(OutputMode.TYPE), window_id=lambda: 42,
                          worker_factory=lambda on_error: OutputWorker(on_error, lambda: keyboard))
    errors: list[str] = []
    notices: list[str] = []
    router.error.connect(errors.append)
    router.notice.connect(notices.append)
    router.session_started()
    router.committed(" Please call the office today.")
    assert router.wait_idle(10)
    qtbot.waitUntil(lambda: bool(errors))  # the worker's error reaches the GUI thread
    router.take_back(CommandEvent(CommandKind.SCRATCH, EndEdit(" Please call the office today.")))
    assert router.wait_idle(10)
    assert keyboard.typed == [" Please call th"]  # no backspace: they would eat the user's own text
    assert notices == [TakeBackRefusal.NOT_ALL_TYPED.value]
    router.shutdown()


class GuardedRecordingKeyboard(RecordingKeyboard):
    """Records which window each guarded key was meant for; "focus" says where the focus is, as
    XTestKeyboard checks it under its server grab (the real one: tests/desktop/test_keyboard_x11.py)."""

    def __init__(self) -> None:
        super().__init__()
        self.focus = 42

    def type_text_into(self, text: str, window: int) -> None:
        self._into(window)
        self.type_text(text)

    def send_keys_into(self, chord: str, window: int) -> None:
        self._into(window)
        self.send_keys(chord)

    def _into(self, window: int) -> None:
        if window != self.focus:
            raise OutputError("not pressed: the focus moved to another window")


def test_scratch_that_sends_its_backspaces_only_into_the_window_it_was_planned_for(qtbot) -> None:  # type: ignore[no-untyped-def]
    from app.dictation.command_match import CommandKind
    from app.dictation.voice_edits import CommandEvent, EndEdit

    keyboard = GuardedRecordingKeyboard()
    router = OutputRouter(OutputOptions(OutputMode.TYPE), window_id=lambda: 42,
                          worker_factory=lambda on_error: OutputWorker(on_error, lambda: keyboard))
    router.committed(" Please call the office today.")
    assert router.wait_idle(10)
    keyboard.focus = 7  # the user clicked into another window after the edit was planned
    router.take_back(CommandEvent(CommandKind.SCRATCH, EndEdit(" Please call the office today.")))
    assert router.wait_idle(10)
    assert keyboard.typed == [" Please call the office today."]  # not one backspace went to window 7
    router.shutdown()


def test_in_paste_mode_an_edit_pastes_nothing_into_a_window_that_took_the_focus(qtbot) -> None:  # type: ignore[no-untyped-def]
    from app.dictation.command_match import CommandKind
    from app.dictation.voice_edits import CommandEvent, EndEdit

    keyboard = GuardedRecordingKeyboard()
    clipboard = QGuiApplication.clipboard()
    clipboard.setText("the user's clipboard")
    router = OutputRouter(OutputOptions(OutputMode.PASTE), window_id=lambda: 42,
                          worker_factory=lambda on_error: OutputWorker(on_error, lambda: keyboard))
    router.committed(" call the office")
    qtbot.waitUntil(lambda: not router.paster.busy, timeout=10_000)  # no app reads the offscreen clipboard
    keyboard.focus = 7  # the user clicked into another window after the edit was planned
    router.take_back(CommandEvent(CommandKind.CAP, EndEdit(" office", " Office")))
    qtbot.waitUntil(lambda: not router.paster.busy, timeout=10_000)
    assert keyboard.typed == ["<ctrl+v>"]  # the dictated text's paste; the edit's keys all held back
    assert clipboard.text() == "the user's clipboard"
    router.shutdown()
    # Qt's offscreen platform segfaults at exit while the clipboard holds a QMimeData made in
    # Python (the restored copy); the xcb platform the app runs on does not
    clipboard.clear()

"""One dictated text: what the window shows, the History stores and the focused app receives is
the same post-processed text; each session is a paragraph; the user may edit the live transcript
while and after dictating, and the edits reach the History.

Real window, real worker and tiny.en, a committed espeak clip replayed as the microphone. The
focused app is the recording keyboard of test_dictation_errors (offscreen Qt has no other app to
type into; typing into real X11 apps is tests/desktop/test_dictate_into_apps.py)."""

from __future__ import annotations

from gui_helpers import CLIPS, DATA, normalized, open_window, wait_model_ready
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from test_dictation_errors import window_typing_into_a_recording_keyboard
from test_dictation_window import dictate

from app.controller.states import RecordState
from app.ui.main_window import MainWindow

COMMANDS = DATA / "espeak_commands.wav"  # "Please call me on Monday, period. New line. See you then."
MEETING = DATA / "espeak_meeting.wav"
MEETING_WORDS = normalized(CLIPS["espeak_meeting.wav"]["text"])
MORNING = DATA / "espeak_morning.wav"  # two sentences, committed in several pieces
MORNING_WORDS = normalized(CLIPS["espeak_morning.wav"]["text"])


def wait_idle(qtbot, window: MainWindow) -> None:
    qtbot.waitUntil(lambda: window.controller.dictation.state == RecordState.IDLE, timeout=120_000)


def test_the_window_the_history_and_the_focused_app_get_one_post_processed_text(qtbot, parts) -> None:
    window, keyboard, router = window_typing_into_a_recording_keyboard(qtbot, parts)

    dictate(qtbot, window, COMMANDS)
    wait_idle(qtbot, window)

    shown = window.transcript.committed_text
    [entry] = window.controller.history.search()
    assert router.wait_idle(10)
    typed = "".join(keyboard.typed)
    assert shown == entry.text == typed, (shown, entry.text, typed)
    assert "period" not in shown.lower() and "new line" not in shown.lower(), shown  # the commands were applied
    assert "Monday.\nSee you then" in shown, shown
    assert not entry.text[:1].isspace()  # no leading space stored
    assert normalized(shown) == "please call me on monday see you then"
    panel = window.history_panel
    assert panel.list.item(0).text().startswith("Please call me on Monday.")  # named by its first words
    # the entry kept when its words were spoken, so it can be exported as subtitles later
    assert entry.timed and 0.0 <= entry.segments[0].start < 1.0 < entry.segments[-1].end < 6.0, entry.segments


def test_each_dictation_session_starts_a_new_paragraph(qtbot, parts) -> None:
    window = open_window(qtbot, parts)
    wait_model_ready(qtbot, window)
    for _ in range(2):
        dictate(qtbot, window, MEETING)
        wait_idle(qtbot, window)

    paragraphs = window.transcript.committed_text.split("\n\n")
    assert [normalized(p) for p in paragraphs] == [MEETING_WORDS, MEETING_WORDS], window.transcript.toPlainText()
    assert window.transcript.document().blockCount() == 3  # paragraph, empty line, paragraph
    stored = sorted(window.controller.history.search(), key=lambda e: e.id)
    assert [e.text for e in stored] == paragraphs


def test_the_live_transcript_is_editable_and_new_commits_go_after_the_edits(qtbot, parts) -> None:
    window = open_window(qtbot, parts)
    wait_model_ready(qtbot, window)
    view = window.transcript
    assert view.isReadOnly()  # nothing to edit yet
    dictate(qtbot, window, MEETING)
    wait_idle(qtbot, window)
    assert not view.isReadOnly()

    view.setFocus()
    view.moveCursor(QTextCursor.MoveOperation.Start)
    qtbot.keyClicks(view, "Note: ")
    [first] = window.controller.history.search()
    qtbot.waitUntil(lambda: window.controller.history.get(first.id).text.startswith("Note: Please"), timeout=5000)

    typed_while_active: list[bool] = []

    def type_after_the_first_commit(_delta: str) -> None:  # between two commits of the session
        if not typed_while_active:
            typed_while_active.append(window.controller.dictation.active)
            view.moveCursor(QTextCursor.MoveOperation.End)  # into the grey tail: kept before it
            qtbot.keyClicks(view, " (typed)")
            qtbot.keyClick(view, Qt.Key.Key_Delete)  # at the tail it would eat tentative words: ignored

    window.controller.dictation.committed.connect(type_after_the_first_commit)
    dictate(qtbot, window, MORNING)  # dictating again, the user goes on typing
    wait_idle(qtbot, window)

    one, two = view.committed_text.split("\n\n")
    assert one.startswith("Note: Please move the meeting") and normalized(one[6:]) == MEETING_WORDS
    assert typed_while_active == [True]
    assert normalized(two.replace("(typed)", "")) == MORNING_WORDS, two  # no word lost or overwritten
    assert two.split("(typed)")[1].strip(), two  # later commits came after the user's words
    stored = sorted(window.controller.history.search(), key=lambda e: e.id)
    qtbot.waitUntil(lambda: [window.controller.history.get(e.id).text for e in stored] == [one, two],
                    timeout=5000)

    # an entry edited in the History's editor is not overwritten by a later edit elsewhere in the view
    panel = window.history_panel
    panel.list.setCurrentRow([panel.list.item(i).data(Qt.ItemDataRole.UserRole)
                              for i in range(panel.list.count())].index(stored[0].id))
    panel.open_selected()
    assert panel.editor is not None
    panel.editor.text.setPlainText("Rewritten in the History.")
    panel.editor.save_button.click()
    view.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(view, " Bye.")
    qtbot.waitUntil(lambda: window.controller.history.get(stored[1].id).text == two + " Bye.", timeout=5000)
    assert window.controller.history.get(stored[0].id).text == "Rewritten in the History."

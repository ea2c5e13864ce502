"""What happens to dictated words when something fails mid-session: a microphone that goes away,
a history database locked by another process, a damaged history file. Real window, real
worker and tiny.en; the committed espeak clips are the speech."""

from __future__ import annotations

import copy
import dataclasses
import os
import time
from pathlib import Path

import numpy as np
from earshot_testing import locked_by_another_process, read_wav
from gui_helpers import CLIPS, DATA, normalized, open_window, wait_model_ready
from PySide6.QtGui import QGuiApplication

from app.audio.capture import AudioDeviceError
from app.audio.replay import ReplayOptions, ReplaySource
from app.controller.app_controller import AppController, AppParts
from app.controller.desktop.integration import DesktopIntegration, DesktopOptions
from app.controller.desktop.output_router import OutputOptions, OutputRouter
from app.controller.live import LiveSession
from app.controller.states import RecordState
from app.desktop.typing import OutputMode, OutputWorker
from app.history.store import EntryKind, HistoryStore
from app.ui.main_window import MainWindow


class UnpluggedMicrophone(ReplaySource):
    """A FAKE device: a clip replayed in real time that is "unplugged" after `unplug_s`: the ring
    closes and `check_alive` raises, as `MicrophoneCapture` does when its stream dies. A fake,
    because this machine has no sound card to pull out (PulseAudio's virtual sources cannot be
    removed from under a running ALSA stream in a way the test could time)."""

    def __init__(self, audio: np.ndarray, unplug_s: float) -> None:
        super().__init__(audio, 16000, ReplayOptions(realtime=True))
        self._unplug = unplug_s
        self._started = 0.0

    def start(self) -> None:
        self._started = time.monotonic()
        super().start()

    def check_alive(self) -> None:
        if time.monotonic() - self._started >= self._unplug:
            self._stop.set()
            self.ring.close()
            raise AudioDeviceError("The microphone 'USB Mic' stopped delivering audio (unplugged?).")


class RecordingKeyboard:
    """Stands in for the focused app (offscreen Qt has no X server to type into): what was typed."""

    name = "recording"

    def __init__(self) -> None:
        self.typed: list[str] = []

    def type_text(self, text: str) -> None:
        self.typed.append(text)

    def send_keys(self, chord: str) -> None:
        self.typed.append(f"<{chord}>")

    def close(self) -> None:
        pass


def window_typing_into_a_recording_keyboard(  # type: ignore[no-untyped-def]
    qtbot, parts: AppParts
) -> tuple[MainWindow, RecordingKeyboard, OutputRouter]:
    """The window with its model loaded, not shown: another app has the focus, so the router
    types what is committed (it never types into Earshot's own window) into the keyboard; the
    router is returned to wait until it is idle."""
    window = MainWindow(AppController(parts))
    qtbot.addWidget(window)
    window.controller.start()
    wait_model_ready(qtbot, window)
    keyboard = RecordingKeyboard()
    router = OutputRouter(OutputOptions(OutputMode.TYPE),
                          worker_factory=lambda on_error: OutputWorker(on_error, lambda: keyboard))
    DesktopIntegration(window.controller.dictation, DesktopOptions(OutputOptions(OutputMode.TYPE)), router=router)
    assert QGuiApplication.focusWindow() is None
    return window, keyboard, router


def test_words_committed_after_a_microphone_error_reach_window_history_and_typed_output(qtbot, parts) -> None:
    clip = "espeak_morning.wav"  # "Good morning everyone. Today we will review the budget ..."
    audio = read_wav(DATA / clip)
    unplug_s = 4.0  # inside the second sentence: its words are committed only after the error
    parts = dataclasses.replace(
        parts, dictation_factory=lambda request, emit: LiveSession(request, emit, UnpluggedMicrophone(audio, unplug_s))
    )
    window, keyboard, router = window_typing_into_a_recording_keyboard(qtbot, parts)
    dictation = window.controller.dictation
    order: list[str] = []
    dictation.committed.connect(lambda text: order.append(f"text:{text}"))
    dictation.state_changed.connect(lambda state, _r: order.append(f"state:{state.value}"))

    window.record_bar.button.click()
    qtbot.waitUntil(lambda: dictation.state == RecordState.ERROR, timeout=120_000)

    [entry] = window.controller.history.search()
    shown = window.transcript.committed_text
    assert "unplugged" in window.record_bar.detail.text()
    assert normalized(shown) == normalized(entry.text), "the window lost words the history has"
    said = normalized(CLIPS[clip]["text"]).split()
    assert normalized(shown).split()[:5] == said[:5], shown  # "good morning everyone today we"
    assert order.index("state:error") > max(i for i, o in enumerate(order) if o.startswith("text:"))
    assert router.wait_idle(10)
    typed = "".join(keyboard.typed)
    assert normalized(typed) == normalized(entry.text), "typed output lost words after the error"
    assert window.record_bar.button.text() == "Record" and window.record_bar.button.isEnabled()


def test_a_history_locked_by_another_process_loses_nothing_and_stop_still_works(qtbot, parts) -> None:
    window = open_window(qtbot, parts)
    wait_model_ready(qtbot, window)
    dictation = window.controller.dictation
    with locked_by_another_process(parts.history.path):
        from test_dictation_window import dictate

        dictate(qtbot, window, DATA / "espeak_meeting.wav", realtime=True)
        qtbot.waitUntil(lambda: dictation.state == RecordState.HEARING_SPEECH, timeout=60_000)
        qtbot.waitUntil(lambda: window.transcript.committed_text.strip() != "", timeout=60_000)
        dictation.stop()  # `earshot stop` calls this: it must end the session while the lock lasts
        qtbot.waitUntil(lambda: dictation.state == RecordState.IDLE, timeout=60_000)
        shown = window.transcript.committed_text
        assert shown.strip() and window.controller.history.pending > 0
        assert [e.text for e in HistoryStore(parts.history.path).search()] in ([], [""])  # not stored yet
        assert window.history_panel.list.count() == 1  # the History shows it from memory meanwhile
    assert window.controller.history.flush(30)
    qtbot.waitUntil(lambda: window.history_panel.list.count() == 1, timeout=10_000)  # the panel is told
    [entry] = HistoryStore(parts.history.path).search()
    assert entry.kind is EntryKind.DICTATION and entry.text.strip() == shown.strip()


def test_a_damaged_history_file_still_opens_the_window_with_a_notice(qtbot, app_dirs: Path) -> None:
    db = app_dirs / "data" / "history.sqlite3"
    db.parent.mkdir(parents=True)
    db.write_bytes(os.urandom(65536))
    from app.composition import build_parts

    parts: AppParts = build_parts(app_dirs / "config" / "settings.toml", db)
    window = MainWindow(AppController(parts))
    qtbot.addWidget(window)
    window.show()
    assert window.notice.isVisible()
    assert "history could not be read" in window.notice.label.text()
    assert list(db.parent.glob("history.sqlite3.corrupt-*"))
    assert window.history_panel.list.count() == 0


def test_a_history_folder_that_cannot_be_made_keeps_the_session_in_memory(qtbot, app_dirs: Path) -> None:
    """$EARSHOT_DATA_DIR (or the data folder) with a file in its place: the window opens with a
    notice that names the folder, and a dictation is in the History until the app quits (the
    app stopped at start with a traceback before)."""
    in_the_way = app_dirs / "data"
    in_the_way.write_text("not a folder")
    from test_dictation_window import dictate

    from app.composition import build_parts

    parts: AppParts = build_parts(app_dirs / "config" / "settings.toml", in_the_way / "history.sqlite3")
    window = open_window(qtbot, parts)
    assert window.notice.isVisible()
    assert "history cannot be saved" in window.notice.label.text() and str(in_the_way) in window.notice.label.text()
    wait_model_ready(qtbot, window)
    settings = copy.deepcopy(window.controller.settings)
    settings.dictation.keep_audio = True  # its folder cannot be made either: the dictation goes on
    window.controller.apply_settings(settings)
    dictate(qtbot, window, DATA / "espeak_meeting.wav")
    dictation = window.controller.dictation
    qtbot.waitUntil(lambda: dictation.state == RecordState.IDLE and window.transcript.committed_text.strip() != "",
                    timeout=120_000)
    qtbot.waitUntil(lambda: window.history_panel.list.count() == 1, timeout=10_000)
    [entry] = window.controller.history.search()
    assert entry.text.strip() == window.transcript.committed_text.strip()
    assert in_the_way.read_text() == "not a folder"

"""Dictation in the window, through the real dictation worker with a replayed clip as the
audio source (the same ring buffer and worker the microphone feeds) and the real tiny.en."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from gui_helpers import CLIPS, DATA, normalized, open_window, wait_model_ready

from app.controller.app_controller import AppController
from app.controller.ports import AudioSource
from app.controller.states import RecordState
from app.history.store import HistoryStore
from app.ui.main_window import MainWindow

CLIP = "espeak_meeting.wav"
EXPECTED = normalized(CLIPS[CLIP]["text"])


def dictate(qtbot, window: MainWindow, clip: Path, realtime: bool = False) -> list[tuple[str, str]]:
    """Click Record with `clip` replayed as the microphone; returns what the view showed
    (committed, tentative) after every update, until the session is over."""
    seen: list[tuple[str, str]] = []
    view, dictation = window.transcript, window.controller.dictation
    snapshot = lambda *_: seen.append((view.committed_text, view.tentative_text))  # noqa: E731
    dictation.committed.connect(snapshot)
    dictation.tentative.connect(snapshot)
    dictation.source_override = AudioSource(replay_file=clip, realtime=realtime)
    window.record_bar.button.click()
    return seen


def test_record_shows_tentative_then_committed_text(qtbot, parts) -> None:
    window = open_window(qtbot, parts)
    wait_model_ready(qtbot, window)
    states: list[RecordState] = []
    window.controller.dictation.state_changed.connect(lambda state, _reason: states.append(state))
    levels: list[float] = []
    window.controller.dictation.level.connect(levels.append)

    window.controller.add_files([DATA / "espeak_morning.wav"])
    [job_id] = window.controller.jobs.jobs
    seen = dictate(qtbot, window, DATA / CLIP)  # dictation and a file job at the same time
    assert window.record_bar.button.text() == "Stop"
    qtbot.waitUntil(lambda: window.controller.dictation.state == RecordState.IDLE, timeout=120_000)
    qtbot.waitUntil(lambda: window.controller.jobs.jobs[job_id].state.finished, timeout=120_000)
    job = window.controller.jobs.jobs[job_id]  # the latest snapshot (jobs are frozen)
    assert normalized(job.transcript.text) == normalized(CLIPS["espeak_morning.wav"]["text"])

    assert normalized(window.transcript.committed_text) == EXPECTED
    assert window.transcript.tentative_text == ""
    assert window.transcript.toPlainText() == window.transcript.committed_text
    # grey tentative words were on screen before all of the sentence was committed
    early = [(c, t) for c, t in seen if t.strip() and normalized(c) != EXPECTED]
    assert early, f"no tentative text was shown before the commit: {seen}"
    assert states[0] == RecordState.LISTENING and RecordState.HEARING_SPEECH in states
    assert max(levels) > 0.05  # the level meter moved with the speech
    assert window.record_bar.meter.level == 0.0  # and rests when the session is over
    assert window.record_bar.title.text() == "Ready" and window.record_bar.button.text() == "Record"
    assert window.status_line.latency_label.text().startswith("Delay ")  # plain words, the ms in its tooltip
    assert window.status_line.latency_label.toolTip().endswith(" ms after you said them")

    # the dictation is in the history, and still there after a restart (a new store, same file)
    window.close()
    reopened = dataclasses.replace(parts, history=HistoryStore(parts.history.path))
    restarted = MainWindow(AppController(reopened))
    qtbot.addWidget(restarted)
    panel = restarted.history_panel
    labels = sorted(panel.list.item(i).text() for i in range(panel.list.count()))
    assert len(labels) == 2
    assert labels[0].startswith("Please move the meeting to Thursday… · Today")  # named by its first words
    assert labels[1].startswith("espeak_morning.wav · Today")
    panel.search.setText("thursday afternoon")
    panel.refresh()
    assert panel.list.count() == 1
    panel.list.setCurrentRow(0)
    with qtbot.waitSignal(panel.open_entry) as opened:
        panel.open_button.click()
    assert normalized(opened.args[1]) == EXPECTED
    panel.search.setText("no such words")
    panel.refresh()
    assert panel.list.count() == 0

    panel.search.setText("")
    panel.refresh()
    panel.list.setCurrentRow(0)
    panel.confirm_delete = lambda _parent, _question: True  # the user confirms the deletion
    panel.delete_selected()
    assert panel.list.count() == 1  # the file transcript is left
    assert [e.title for e in HistoryStore(parts.history.path).search()] == ["espeak_morning.wav"]


def test_closing_while_dictating_asks_first(qtbot, parts) -> None:
    window = open_window(qtbot, parts)
    wait_model_ready(qtbot, window)
    asked: list[bool] = []
    window.confirm_quit = lambda _parent: asked.append(True) or False  # the user says "No"
    dictate(qtbot, window, DATA / CLIP, realtime=True)
    assert window.controller.dictation.active

    window.close()
    assert asked == [True]
    assert window.isVisible() and window.controller.dictation.active

    window.controller.dictation.cancel()
    assert window.record_bar.button.text() == "Record"


def test_missing_microphone_is_a_clear_error(qtbot, parts) -> None:
    """A microphone that is not there (a name no device has: holds with or without PulseAudio)."""
    settings = parts.settings_store.load().settings
    settings.dictation.input_device = "Studio Mic That Is Not Plugged In"
    parts.settings_store.save(settings)
    window = open_window(qtbot, parts)
    wait_model_ready(qtbot, window)

    window.record_bar.button.click()

    assert window.controller.dictation.state == RecordState.ERROR
    assert window.record_bar.title.text() == "Something went wrong"
    reason = window.record_bar.detail.text()
    assert "Studio Mic That Is Not Plugged In" in reason or "PortAudio" in reason
    assert "pick another input device" in reason
    assert window.record_bar.button.text() == "Record" and window.record_bar.button.isEnabled()
    assert window.record_bar.devices.isEnabled()  # the user can pick another device right away

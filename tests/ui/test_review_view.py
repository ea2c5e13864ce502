"""The one review view of a transcript, for a file job and a dictation alike: segments with their
start times, a clicked word played from its time, edits that keep the times, and a dictation's
audio kept only when Settings allows it and deleted with its History entry.

Real engine (tiny.en), real widgets, real playback: the machine has no sound card, so a private
PulseAudio with a null sink is the output (PortAudio -> ALSA pulse plugin -> PulseAudio), and
the test reads where the player started and how far it got. Skipped only where pulseaudio is
not installed.
"""

from __future__ import annotations

import json
import shutil
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from earshot_testing import private_pulseaudio
from gui_helpers import DATA, open_window, wait_model_ready
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox
from test_dictation_text import wait_idle
from test_dictation_window import dictate
from test_file_drop import drop_files

from app.audio.capture import rescan_devices
from app.audio.playback import PlaybackState
from app.controller.review import clock
from app.ui.review_view import NO_DICTATION_AUDIO, ReviewView
from app.ui.settings_dialog import SettingsDialog

pytestmark = pytest.mark.skipif(shutil.which("pulseaudio") is None or shutil.which("pactl") is None,
                                reason="pulseaudio / pulseaudio-utils are not installed")

WORDS = json.loads((DATA / "espeak_words.json").read_text(encoding="utf-8"))["words"]
RATE = 16_000


@pytest.fixture
def null_sink(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A private sound server whose only output is a null sink; PortAudio lists it."""
    runtime = tmp_path / "xdg"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    monkeypatch.delenv("PULSE_SERVER", raising=False)
    monkeypatch.delenv("PULSE_RUNTIME_PATH", raising=False)
    with private_pulseaudio(runtime, tmp_path / "pulse.log"):
        rescan_devices()
        yield
    rescan_devices()


def click_word(qtbot, view: ReviewView, segment: int, word: str) -> None:  # type: ignore[no-untyped-def]
    """A left click inside `word` of segment `segment`, where the user sees it."""
    editor = view.text
    offset = editor.segment_texts()[segment].index(word) + 2
    cursor = editor.textCursor()
    cursor.setPosition(editor.position_of(segment, offset))
    qtbot.mouseClick(editor.viewport(), Qt.MouseButton.LeftButton, pos=editor.cursorRect(cursor).center())


def test_a_file_job_reviews_with_times_plays_a_clicked_word_and_keeps_times_on_edit(
        qtbot, parts, null_sink) -> None:
    window = open_window(qtbot, parts)
    drop_files(window, [DATA / "espeak_words.wav"])
    jobs = window.controller.jobs
    qtbot.waitUntil(lambda: len(jobs.jobs) == 1 and jobs.pending() == 0, timeout=300_000)
    (job_id,) = jobs.jobs
    window.jobs_panel.rows[job_id].open_button.click()
    view = window.jobs_panel.review
    assert view is not None and view.isVisible()
    qtbot.waitExposed(view)
    texts, labels = view.text.segment_texts(), view.text.gutter_labels()
    assert "Maria" in " ".join(texts) and len(labels) == len(texts)
    assert labels[0].startswith("0:0") and view.text.gutter.isVisible()
    assert "Click a word to hear it" in view.status.text()

    segment = next(i for i, t in enumerate(texts) if "Maria" in t)
    click_word(qtbot, view, segment, "Maria")
    player = window.controller.playback.player
    truth = next(w for w in WORDS if w["word"] == "Maria")["start"]
    assert abs(player.start_sample - truth * RATE) <= 0.1 * RATE, (player.start_sample / RATE, truth)
    assert "Playing from 0:0" in view.status.text()
    qtbot.waitUntil(lambda: player.position > player.start_sample + RATE // 10, timeout=5000)  # it plays
    view.stop_button.click()
    assert player.state is PlaybackState.STOPPED
    stopped_at = player.position
    qtbot.wait(300)
    assert player.position == stopped_at  # nothing is played after Stop

    [entry] = window.controller.history.search()
    times = [(s.start, s.end) for s in entry.pieces]
    editor = view.text
    cursor = editor.textCursor()
    cursor.setPosition(editor.position_of(segment, texts[segment].index("Maria")))
    editor.setTextCursor(cursor)
    qtbot.keyClicks(editor, "Dear ")
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # a new paragraph would split a segment: refused
    assert editor.segment_texts()[segment].count("Dear Maria") == 1 and len(editor.segment_texts()) == len(texts)
    view.save_button.click()
    edited = window.controller.history.get(entry.id)
    assert edited is not None and "Dear Maria" in edited.text and edited.original == entry.text
    assert [(s.start, s.end) for s in edited.pieces] == times and edited.timed  # SRT still has its times


def test_dictation_audio_is_kept_only_when_allowed_and_deleted_with_its_entry(qtbot, parts, null_sink) -> None:
    window = open_window(qtbot, parts)
    wait_model_ready(qtbot, window)
    history, panel = window.controller.history, window.history_panel
    dictate(qtbot, window, DATA / "espeak_meeting.wav")
    wait_idle(qtbot, window)
    [private] = history.search()
    assert history.audio.kept(private.id) is None  # off by default: nothing of the voice is kept
    panel.refresh()
    panel.list.setCurrentRow(0)
    panel.open_selected()
    view = panel.editor
    assert view is not None
    assert view.text.gutter_labels()[0].startswith("0:0") and view.status.text() == NO_DICTATION_AUDIO
    assert not view.play_button.isEnabled()
    view.close()

    dialog = SettingsDialog(window.controller, window)
    qtbot.addWidget(dialog)
    assert not dialog.dictation_page.keep_audio.isChecked()
    dialog.dictation_page.keep_audio.setChecked(True)
    dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok).click()
    dictate(qtbot, window, DATA / "espeak_meeting.wav")
    wait_idle(qtbot, window)
    kept_entry = history.search()[0]
    kept = history.audio.kept(kept_entry.id)
    assert kept is not None and kept.stat().st_size > RATE  # seconds of 16-bit audio
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600 and kept.parent.parent == history.path.parent

    panel.refresh()
    panel.list.setCurrentRow(0)
    panel.open_selected()
    view = panel.editor
    assert view is not None and view.play_button.isEnabled()
    pieces = kept_entry.pieces
    last = len(pieces) - 1
    assert view.text.gutter_labels() == [clock(p.start) for p in pieces]  # each utterance's start time
    word = view.text.segment_texts()[last].split()[-1].strip(".,")
    click_word(qtbot, view, last, word)
    player = window.controller.playback.player
    [spoken] = [w for w in kept_entry.words if w.text.strip(".,") == word][-1:]  # the word's own time
    assert player.start_sample == round(spoken.start * RATE) > round(pieces[last].start * RATE)
    qtbot.waitUntil(lambda: player.position > player.start_sample, timeout=5000)
    view.close()
    assert player.state is PlaybackState.STOPPED  # closing the view ends playback

    panel.confirm_delete = lambda _parent, _question: True
    panel.delete_selected()
    assert not kept.exists() and history.get(kept_entry.id) is None

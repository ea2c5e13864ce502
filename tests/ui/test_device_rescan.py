"""A sound server that starts after Earshot: PortAudio lists devices once, so the app must look
again when the user presses Record and when Settings lists the microphones.

Real path: a private PulseAudio (null sink `vsink`, its monitor the default source) -> ALSA
pulse plugin -> PortAudio -> the window's dictation. PortAudio is first made to list devices
while no server runs (what it does at import on a desktop where Earshot started first).
Skipped only where pulseaudio / pulseaudio-utils are not installed.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from earshot_testing import private_pulseaudio
from gui_helpers import DATA, normalized, open_window, wait_model_ready

from app.audio.capture import rescan_devices
from app.controller.states import RecordState
from app.ui.settings_dialog import SettingsDialog

pytestmark = pytest.mark.skipif(shutil.which("pulseaudio") is None or shutil.which("paplay") is None,
                                reason="pulseaudio / pulseaudio-utils are not installed")


@pytest.fixture
def no_sound_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """No server yet: PortAudio lists what it sees now (nothing); afterwards it rescans again."""
    runtime = tmp_path / "xdg"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    monkeypatch.delenv("PULSE_SERVER", raising=False)
    monkeypatch.delenv("PULSE_RUNTIME_PATH", raising=False)
    rescan_devices()
    yield runtime
    monkeypatch.undo()
    rescan_devices()


@contextmanager
def pulse_server(runtime: Path) -> Iterator[dict[str, str]]:
    with private_pulseaudio(runtime, runtime.parent / "pulse.log") as (env, _proc):
        yield env


def test_record_finds_a_sound_server_that_started_after_the_app(qtbot, parts, no_sound_server: Path) -> None:
    window = open_window(qtbot, parts)
    wait_model_ready(qtbot, window)
    dictation = window.controller.dictation
    window.record_bar.button.click()
    assert dictation.state == RecordState.ERROR and "No microphone found" in window.record_bar.detail.text()

    with pulse_server(no_sound_server) as env:
        window.record_bar.button.click()  # no restart: Record looks for devices again
        assert dictation.state == RecordState.LISTENING, window.record_bar.detail.text()
        clip = "espeak_meeting.wav"
        deadline = time.monotonic() + 120
        while not window.transcript.committed_text.strip():  # the first audio may take 2 s to flow
            subprocess.run(["paplay", "--device=vsink", str(DATA / clip)], env=env, check=True, timeout=60)
            qtbot.wait(1500)
            assert time.monotonic() < deadline, "nothing was dictated from the sound server"
        dictation.stop()
        qtbot.waitUntil(lambda: dictation.state == RecordState.IDLE, timeout=60_000)
    words = set(normalized(window.transcript.committed_text).split())
    assert {"meeting", "thursday", "team"} <= words, window.transcript.committed_text


def test_the_settings_device_list_finds_a_sound_server_that_started_later(qtbot, parts, no_sound_server: Path) -> None:
    window = open_window(qtbot, parts, load=False)
    before = SettingsDialog(window.controller, window)
    qtbot.addWidget(before)
    assert [before.device.itemText(i) for i in range(before.device.count())] == ["System default microphone"]

    with pulse_server(no_sound_server):
        dialog = SettingsDialog(window.controller, window)
        qtbot.addWidget(dialog)
        shown = [dialog.device.itemText(i) for i in range(dialog.device.count())]
    # the server's default input (the null sink's monitor), by the name the sound settings give it
    assert shown == ["System default (Monitor of Null Output)", "Monitor of Null Output"], shown

"""Item 9 of issue 32: the level meter beside the microphone menu checks a microphone before
dictating. "Test microphone" opens the chosen one and the meter follows its sound; the device is
let go when the test is switched off, the window is hidden or recording starts; a microphone
that does not open is one quiet line under the meter, never a dialog.

Real path: a private PulseAudio whose default source is the monitor of a null sink (the
virtual microphone), fed with `paplay` -> ALSA pulse plugin -> PortAudio -> the window. Whether
the app holds the microphone is read from the sound server (`pactl list short source-outputs`).
Skipped only where pulseaudio / pulseaudio-utils are not installed.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from earshot_testing import private_pulseaudio
from gui_helpers import DATA, open_window, wait_model_ready
from PySide6.QtWidgets import QApplication

from app.audio.capture import rescan_devices
from app.controller.ports import AudioSource

pytestmark = pytest.mark.skipif(shutil.which("pulseaudio") is None or shutil.which("paplay") is None,
                                reason="pulseaudio / pulseaudio-utils are not installed")

OPEN_MS = 10_000  # a busy 2-core machine: the stream's first callback may take a while


@pytest.fixture
def pulse(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """The virtual microphone: the default source is the monitor of the null sink `vsink`."""
    runtime = tmp_path / "xdg"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    monkeypatch.delenv("PULSE_SERVER", raising=False)
    monkeypatch.delenv("PULSE_RUNTIME_PATH", raising=False)
    with private_pulseaudio(runtime, tmp_path / "pulse.log") as (env, _proc):
        rescan_devices()
        yield env
    rescan_devices()


def recording_streams(env: dict[str, str]) -> int:
    """How many streams record from the sound server (the app's open microphones)."""
    out = subprocess.run(["pactl", "list", "short", "source-outputs"], env=env, check=True,
                         capture_output=True, text=True).stdout
    return len(out.strip().splitlines())


def speak(env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(["paplay", "--device=vsink", str(DATA / "espeak_meeting.wav")], env=env)


def test_the_meter_follows_the_microphone_before_dictating_and_lets_it_go_when_hidden(
        qtbot, parts, pulse) -> None:
    window = open_window(qtbot, parts, load=False)
    bar = window.record_bar
    assert bar.test_button.isVisible() and bar.test_button.isEnabled()
    assert recording_streams(pulse) == 0  # shown, idle, not tested: the microphone is not opened
    bar.test_button.click()
    assert bar.test_button.isChecked() and window.controller.microphone_test.running
    qtbot.waitUntil(lambda: recording_streams(pulse) == 1, timeout=OPEN_MS)
    qtbot.wait(500)
    assert bar.meter.level == 0.0  # silence: the meter rests

    player = speak(pulse)
    try:
        qtbot.waitUntil(lambda: bar.meter.level > 0.2, timeout=OPEN_MS)  # it moves with the voice
    finally:
        player.wait(30)
    qtbot.waitUntil(lambda: bar.meter.level == 0.0, timeout=OPEN_MS)  # and rests once it stops

    bar.test_button.click()  # switched off: let go
    assert not window.controller.microphone_test.running
    qtbot.waitUntil(lambda: recording_streams(pulse) == 0, timeout=OPEN_MS)

    bar.test_button.click()
    qtbot.waitUntil(lambda: recording_streams(pulse) == 1, timeout=OPEN_MS)
    window.hide()  # to the tray: nobody looks at the meter
    assert not bar.test_button.isChecked() and not window.controller.microphone_test.running
    qtbot.waitUntil(lambda: recording_streams(pulse) == 0, timeout=OPEN_MS)

    window.show()
    qtbot.waitExposed(window)
    assert recording_streams(pulse) == 0  # shown again: opened only when asked
    window.controller.set_input_device("Jabra Evolve 20 Mono")  # chosen, not connected
    bar.test_button.click()
    assert not bar.test_button.isChecked() and bar.microphone_problem.isVisible()
    assert "Jabra Evolve 20 Mono" in bar.microphone_problem.toolTip()
    assert bar.microphone_problem.text().count("\n") == 0
    assert QApplication.activeModalWidget() is None  # no dialog
    assert recording_streams(pulse) == 0


def test_recording_closes_the_tested_microphone_first(qtbot, parts, pulse) -> None:
    window = open_window(qtbot, parts)
    wait_model_ready(qtbot, window)
    controller = window.controller
    # the dictation reads a file, so any stream left on the sound server is the test's
    controller.dictation.source_override = AudioSource(replay_file=DATA / "espeak_meeting.wav", realtime=True)
    bar = window.record_bar
    bar.test_button.click()
    qtbot.waitUntil(lambda: recording_streams(pulse) == 1, timeout=OPEN_MS)
    bar.button.click()  # Record
    assert controller.dictation.active and not controller.microphone_test.running
    assert not bar.test_button.isChecked() and not bar.test_button.isEnabled()
    qtbot.waitUntil(lambda: recording_streams(pulse) == 0, timeout=OPEN_MS)
    controller.dictation.cancel()
    assert bar.test_button.isEnabled()

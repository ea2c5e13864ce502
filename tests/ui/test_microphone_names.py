"""Microphones are listed by the names the sound settings show ("Built-in Audio Analog
Stereo"), not PortAudio's ALSA plugin names ("pulse", "default"); PortAudio's error codes
become sentences.

Real path: a private PulseAudio with a source described as "Built-in Audio Analog Stereo" ->
ALSA pulse plugin -> PortAudio -> the window's microphone menus. Skipped only where
pulseaudio / pulseaudio-utils are not installed.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import sounddevice
from earshot_testing import private_pulseaudio
from gui_helpers import open_window

from app.audio.capture import rescan_devices
from app.audio.device_errors import portaudio_sentence
from app.ui.settings_dialog import SettingsDialog

BUILT_IN = "Built-in Audio Analog Stereo"


@pytest.fixture
def built_in_microphone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    if shutil.which("pulseaudio") is None or shutil.which("pactl") is None:
        pytest.skip("pulseaudio / pulseaudio-utils are not installed")
    runtime = tmp_path / "xdg"
    runtime.mkdir(mode=0o700)
    with private_pulseaudio(runtime, tmp_path / "pulse.log") as (env, _proc):
        for key in ("XDG_RUNTIME_DIR",):
            monkeypatch.setenv(key, env[key])
        monkeypatch.delenv("PULSE_SERVER", raising=False)
        monkeypatch.delenv("PULSE_RUNTIME_PATH", raising=False)
        subprocess.run(["pactl", "load-module", "module-null-source", "source_name=builtin",
                        f"description='{BUILT_IN}'"], env=env, check=True)
        subprocess.run(["pactl", "set-default-source", "builtin"], env=env, check=True)
        rescan_devices()
        yield
        monkeypatch.undo()
    rescan_devices()


def test_microphones_have_the_sound_settings_names(qtbot, parts, built_in_microphone: None) -> None:
    window = open_window(qtbot, parts, load=False)
    shown = [window.record_bar.devices.itemText(i) for i in range(window.record_bar.devices.count())]
    assert f"{BUILT_IN} (sound server)" in shown
    assert f"System default: {BUILT_IN}" in shown
    assert not {"pulse", "default", "pulse (default)", "default (default)"} & set(shown)
    dialog = SettingsDialog(window.controller, window)
    qtbot.addWidget(dialog)
    in_settings = [dialog.device.itemText(i) for i in range(dialog.device.count())]
    assert f"{BUILT_IN} (sound server)" in in_settings
    dialog.device.setCurrentIndex(in_settings.index(f"{BUILT_IN} (sound server)"))
    assert dialog.collect().dictation.input_device == "pulse"  # what PortAudio opens stays stored


def test_portaudio_codes_become_sentences() -> None:
    """The real sounddevice exception type, as PortAudio raises it for an output-only device."""
    error = sounddevice.PortAudioError("Error opening InputStream: Illegal combination of I/O devices", -9993)
    assert "[PaErrorCode -9993]" in str(error)
    sentence = portaudio_sentence(error)
    assert "PaErrorCode" not in sentence and "-9993" not in sentence
    assert sentence == ("this device cannot record (it may be an output, like speakers); choose another "
                        "microphone in Settings.")
    unknown = portaudio_sentence(sounddevice.PortAudioError("Something odd", -9980))
    assert unknown == "the sound system said “Something odd”."

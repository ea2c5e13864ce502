"""The microphone list without a sound server (PortAudio's names: Windows, macOS, plain ALSA) and
the sound server's text listing (pactl before 16) read as its JSON one is.

The PortAudio lists are written out by hand: no sound card or second host API exists on a test
machine, so PortAudio cannot be made to list these devices for real.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from earshot_testing import private_pulseaudio

from app.audio.device_names import parse_sources, parse_sources_json
from app.audio.input_devices import InputDevice
from app.audio.microphones import portaudio_microphones


def device(index: int, name: str, host_api: str = "ALSA", default: bool = False) -> InputDevice:
    return InputDevice(index, name, host_api, 2, 48000.0, default)


def test_alsa_devices_are_named_without_routes_and_plug_numbers() -> None:
    listed = [device(0, "HDA Intel PCH: ALC3246 Analog (hw:0,0)"), device(1, "USB Audio Device: - (hw:2,0)"),
              device(2, "sysdefault"), device(3, "dsnoop"), device(4, "default", default=True)]
    assert [m.name for m in portaudio_microphones(listed)] == ["HDA Intel PCH: ALC3246 Analog", "USB Audio Device: -"]


def test_a_device_listed_once_per_host_api_is_one_entry() -> None:
    listed = [device(1, "Microphone (Realtek(R) Audio)", "MME", default=True),
              device(7, "Microphone (Realtek(R) Audio)", "Windows DirectSound"),
              device(12, "Microphone (Realtek(R) Audio)", "Windows WASAPI"),
              device(13, "Headset Microphone (Jabra Evolve 20)", "Windows WASAPI")]
    microphones = portaudio_microphones(listed)
    assert [(m.name, m.is_default) for m in microphones] == [("Microphone (Realtek(R) Audio)", True),
                                                             ("Headset Microphone (Jabra Evolve 20)", False)]


def test_pactl_text_and_json_listings_agree(tmp_path: Path) -> None:
    if shutil.which("pulseaudio") is None or shutil.which("pactl") is None:
        pytest.skip("pulseaudio / pulseaudio-utils are not installed")
    runtime = tmp_path / "xdg"
    runtime.mkdir(mode=0o700)
    with private_pulseaudio(runtime, tmp_path / "pulse.log") as (env, _proc):
        subprocess.run(["pactl", "load-module", "module-null-source", "source_name=usb_headset",
                        "description='Jabra Evolve 20 Mono'"], env=env, check=True, capture_output=True)
        text = subprocess.run(["pactl", "list", "sources"], env=env, capture_output=True, text=True).stdout
        as_json = subprocess.run(["pactl", "-f", "json", "list", "sources"], env=env, capture_output=True,
                                 text=True).stdout
    sources = parse_sources(text)
    assert sources == parse_sources_json(as_json)
    assert [(s.description, s.is_monitor) for s in sources] == [("Monitor of Null Output", True),
                                                                ("Jabra Evolve 20 Mono", False)]

"""The microphone menu as the user sees it, on a real sound server: real names (one entry for the
default, none of PortAudio's "pulse"/"default"/"sysdefault"), a list that follows a headset being
plugged in and out while the window is open, the choice remembered by name, the whole name
visible, and the level meter beside the menu. PortAudio's error codes become sentences.

Real path: a private PulseAudio whose sources are added and removed with `pactl load-module` /
`unload-module` (what plugging a USB headset in and out does) -> pactl / ALSA pulse plugin ->
PortAudio -> the window. Skipped only where pulseaudio / pulseaudio-utils are not installed.
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
HEADSET = "Jabra Evolve 20 Mono"
LONG_NAME = "Logitech G Pro X Wireless Lightspeed Gaming Headset Analog Mono"
PLUG_IN_MS = 10_000  # the list is read again every 2 s; a busy machine gets some slack


class SoundServer:
    """A private PulseAudio; `plug_in` adds a microphone (a null source) and `unplug` removes it."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.modules: dict[str, str] = {}

    def pactl(self, *args: str) -> str:
        return subprocess.run(["pactl", *args], env=self.env, check=True, capture_output=True,
                              text=True).stdout.strip()

    def plug_in(self, source: str, description: str) -> None:
        self.modules[source] = self.pactl("load-module", "module-null-source", f"source_name={source}",
                                          f"description='{description}'")

    def unplug(self, source: str) -> None:
        self.pactl("unload-module", self.modules.pop(source))


@pytest.fixture
def sound_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[SoundServer]:
    """The built-in microphone, the default; nothing else plugged in."""
    if shutil.which("pulseaudio") is None or shutil.which("pactl") is None:
        pytest.skip("pulseaudio / pulseaudio-utils are not installed")
    runtime = tmp_path / "xdg"
    runtime.mkdir(mode=0o700)
    with private_pulseaudio(runtime, tmp_path / "pulse.log") as (env, _proc):
        monkeypatch.setenv("XDG_RUNTIME_DIR", env["XDG_RUNTIME_DIR"])
        monkeypatch.delenv("PULSE_SERVER", raising=False)
        monkeypatch.delenv("PULSE_RUNTIME_PATH", raising=False)
        server = SoundServer(env)
        server.plug_in("builtin", BUILT_IN)
        server.pactl("set-default-source", "builtin")
        rescan_devices()
        yield server
        monkeypatch.undo()
    rescan_devices()


def menu(combo) -> list[str]:  # type: ignore[no-untyped-def]
    return [combo.itemText(i) for i in range(combo.count())]


def choose(qtbot, combo, text: str) -> None:  # type: ignore[no-untyped-def]
    """Pick `text` as a user does (the `activated` signal a click on the item sends)."""
    index = menu(combo).index(text)
    combo.setCurrentIndex(index)
    combo.activated.emit(index)


def test_microphones_have_their_real_names(qtbot, parts, sound_server: SoundServer) -> None:
    window = open_window(qtbot, parts, load=False)
    devices = window.record_bar.devices
    # one entry for the default (naming what it is now), then each microphone once;
    # the null sink's "Monitor of Null Output" (speakers, not a microphone) is not offered
    assert menu(devices) == [f"System default ({BUILT_IN})", BUILT_IN]
    assert devices.currentText() == f"System default ({BUILT_IN})"
    dialog = SettingsDialog(window.controller, window)
    qtbot.addWidget(dialog)
    assert menu(dialog.device) == menu(devices)
    dialog.device.setCurrentIndex(1)
    assert dialog.collect().dictation.input_device == BUILT_IN  # stored by the name the user saw


def test_a_headset_plugged_in_while_the_app_runs_appears_and_goes(qtbot, parts, sound_server: SoundServer) -> None:
    window = open_window(qtbot, parts, load=False)
    devices = window.record_bar.devices
    assert HEADSET not in menu(devices)
    sound_server.plug_in("usb_headset", HEADSET)
    qtbot.waitUntil(lambda: HEADSET in menu(devices), timeout=PLUG_IN_MS)
    assert menu(devices) == [f"System default ({BUILT_IN})", BUILT_IN, HEADSET]

    sound_server.pactl("set-default-source", "usb_headset")  # the desktop switches to the headset
    qtbot.waitUntil(lambda: devices.itemText(0) == f"System default ({HEADSET})", timeout=PLUG_IN_MS)
    sound_server.pactl("set-default-source", "builtin")
    sound_server.unplug("usb_headset")
    qtbot.waitUntil(lambda: menu(devices) == [f"System default ({BUILT_IN})", BUILT_IN], timeout=PLUG_IN_MS)


def test_the_chosen_microphone_is_remembered_by_name(qtbot, parts, sound_server: SoundServer) -> None:
    sound_server.plug_in("usb_headset", HEADSET)
    window = open_window(qtbot, parts, load=False)
    devices = window.record_bar.devices
    choose(qtbot, devices, HEADSET)
    assert window.controller.settings.dictation.input_device == HEADSET
    assert parts.settings_store.load().settings.dictation.input_device == HEADSET  # on disk

    sound_server.unplug("usb_headset")  # unplugged: still the choice, and the menu says why it is idle
    qtbot.waitUntil(lambda: devices.currentText() == f"{HEADSET} (not connected)", timeout=PLUG_IN_MS)
    assert window.controller.settings.dictation.input_device == HEADSET
    sound_server.plug_in("usb_headset", HEADSET)  # plugged back: picked again, no click needed
    qtbot.waitUntil(lambda: devices.currentText() == HEADSET, timeout=PLUG_IN_MS)
    window.close()

    again = open_window(qtbot, parts, load=False)  # the next start
    assert again.record_bar.devices.currentText() == HEADSET


def test_a_stored_portaudio_name_means_the_system_default(qtbot, parts, sound_server: SoundServer) -> None:
    """Settings written when the menu offered PortAudio's "pulse" for the default."""
    settings = parts.settings_store.load().settings
    settings.dictation.input_device = "pulse"
    parts.settings_store.save(settings)
    window = open_window(qtbot, parts, load=False)
    assert window.record_bar.devices.currentText() == f"System default ({BUILT_IN})"
    assert "(not connected)" not in " ".join(menu(window.record_bar.devices))


def test_the_whole_name_is_visible(qtbot, parts, sound_server: SoundServer) -> None:
    sound_server.plug_in("gaming_headset", LONG_NAME)
    window = open_window(qtbot, parts, load=False)
    devices = window.record_bar.devices
    qtbot.waitUntil(lambda: LONG_NAME in menu(devices), timeout=PLUG_IN_MS)
    qtbot.waitUntil(lambda: devices.shown_text() == f"System default ({BUILT_IN})")  # a usual name: whole
    choose(qtbot, devices, LONG_NAME)
    qtbot.waitUntil(lambda: devices.shown_text().endswith("…"))
    shown = devices.shown_text()
    assert shown.endswith("…") and LONG_NAME.startswith(shown[:-1]) and len(shown) > 12  # cut, not lost
    assert LONG_NAME in devices.toolTip()  # hovering shows all of it
    assert devices.width() < window.width() / 3  # the record button and the state keep their room
    devices.showPopup()  # the open list is wide enough for every name
    view = devices.view()
    qtbot.waitUntil(view.isVisible)
    assert view.width() >= devices.fontMetrics().horizontalAdvance(LONG_NAME)
    devices.hidePopup()
    window.resize(1600, 720)  # with room to spare, nothing is cut
    qtbot.waitUntil(lambda: devices.shown_text() == LONG_NAME)
    assert devices.width() < window.width() / 3


def test_the_level_meter_is_beside_the_microphone(qtbot, parts, sound_server: SoundServer) -> None:
    window = open_window(qtbot, parts, load=False)
    bar = window.record_bar
    combo, meter, test = bar.devices.geometry(), bar.meter.geometry(), bar.test_button.geometry()
    assert bar.meter.isVisible() and bar.test_button.isVisible()
    assert 0 <= test.top() - combo.bottom() <= 12  # right under the menu, with "Test microphone"
    assert test.top() < meter.center().y() < test.bottom() and meter.right() < test.left()  # side by side
    assert meter.left() == combo.left() and test.right() == combo.right()
    window.controller.dictation.level.emit(0.25)  # the session's level, as it reports it
    assert bar.meter.accessibleDescription() == "50 percent"


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

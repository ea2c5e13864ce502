"""PortAudio's input devices: listing, finding one by name, and re-enumerating them.

PortAudio enumerates devices once per initialisation, so a microphone plugged in later (or a sound
server started later) appears only after `rescan_devices()`. Re-initialising ends every open
stream, so it is refused while a stream is open; one lock keeps rescans and stream opening apart.
A sound server input ("Jabra Evolve 20 Mono") is opened through PortAudio's "pulse" device with
`PULSE_SOURCE` naming it: libpulse reads that variable when the stream connects.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from app.audio.device_errors import portaudio_sentence
from app.audio.device_names import ALSA_ALIASES, SERVER_PLUGINS, SoundServerSources, plain_name, read_sound_server

DEFAULT_LABEL = "the system default microphone"

log = logging.getLogger(__name__)
_portaudio = threading.RLock()
_open_streams = 0


class AudioDeviceError(Exception):
    """No PortAudio, no input device, a device that cannot be opened, or one that disappeared."""


@dataclass(frozen=True)
class InputDevice:
    """One input device as PortAudio lists it. `default_rate` is in Hz; `label` is what messages
    call it; `source` is the sound server input to record from ("" = the server's default)."""

    index: int
    name: str
    host_api: str
    channels: int
    default_rate: float
    is_default: bool
    label: str = ""
    source: str = ""

    @property
    def shown_name(self) -> str:
        return self.label or self.name


def load_sounddevice() -> Any:
    """Import sounddevice, turning "PortAudio library not found" into `AudioDeviceError`."""
    try:
        import sounddevice
    except OSError as exc:  # the wheel is pure Python; libportaudio2 is a system library
        raise AudioDeviceError(
            "The PortAudio library is not installed, so no microphone can be used "
            "(on Debian/Ubuntu: apt install libportaudio2)."
        ) from exc
    return sounddevice


def rescan_devices() -> bool:
    """Make PortAudio enumerate devices again; False (nothing done) while a stream is open."""
    sd = load_sounddevice()
    with _portaudio:
        if _open_streams:
            log.info("not rescanning the audio devices: %d stream(s) open", _open_streams)
            return False
        sd._terminate()
        sd._initialize()
        return True


@contextmanager
def opening_stream(source: str) -> Iterator[None]:
    """Hold PortAudio (no rescan meanwhile) while a stream is probed and opened on `source`."""
    with _portaudio:
        previous = os.environ.get("PULSE_SOURCE")
        if source:
            os.environ["PULSE_SOURCE"] = source
        try:
            yield
        finally:
            if previous is None:
                os.environ.pop("PULSE_SOURCE", None)
            else:
                os.environ["PULSE_SOURCE"] = previous


def count_open_stream(delta: int) -> None:
    """+1 when a stream is opened, -1 when it is closed: rescans wait for zero."""
    global _open_streams
    with _portaudio:
        _open_streams = max(0, _open_streams + delta)


def _label(name: str) -> str:
    return DEFAULT_LABEL if name in SERVER_PLUGINS | ALSA_ALIASES else plain_name(name)


def list_input_devices() -> list[InputDevice]:
    """Every device with at least one input channel; empty when there is no audio system."""
    sd = load_sounddevice()
    with _portaudio:
        try:
            devices = sd.query_devices()
            default_in = int(sd.default.device[0])
            apis = sd.query_hostapis()
        except sd.PortAudioError as exc:
            raise AudioDeviceError(f"Could not list audio devices: {portaudio_sentence(exc)}") from exc
    return [
        InputDevice(
            index=int(dev["index"]),
            name=str(dev["name"]),
            host_api=str(apis[int(dev["hostapi"])]["name"]),
            channels=int(dev["max_input_channels"]),
            default_rate=float(dev["default_samplerate"]),
            is_default=int(dev["index"]) == default_in,
            label=_label(str(dev["name"])),
        )
        for dev in devices
        if int(dev["max_input_channels"]) >= 1
    ]


def default_input_device() -> InputDevice:
    """The system's default input device, or `AudioDeviceError` when there is none."""
    devices = list_input_devices()
    if not devices:
        raise AudioDeviceError(
            "No microphone found: the system lists no audio input device "
            "(is PulseAudio/PipeWire running, and is a microphone plugged in?)."
        )
    return next((dev for dev in devices if dev.is_default), devices[0])


def server_input(
    wanted: str, devices: list[InputDevice], server: SoundServerSources | None = None
) -> InputDevice | None:
    """The sound server input whose description (or id) is `wanted` (exactly, else as a
    substring), as PortAudio's server device routed to it; None without a server or a match."""
    device = next((d for d in devices if d.name in SERVER_PLUGINS), None)
    server = server or (read_sound_server() if device is not None else None)
    if device is None or server is None:
        return None
    folded = wanted.casefold()
    exact = [s for s in server.sources if folded in (s.description.casefold(), s.name.casefold())]
    partial = [s for s in server.sources if folded in s.description.casefold()]
    if not (exact or partial):
        return None
    source = (exact or partial)[0]
    return replace(device, label=source.description, source=source.name, is_default=source.name == server.default)


def find_input_device(wanted: str | int | None) -> InputDevice:
    """Resolve a device by index, by PortAudio name, by sound server input (description or id),
    by name without ALSA's "(hw:1,0)", by (case-insensitive substring of its) name, or the default."""
    if wanted is None:
        return default_input_device()
    devices = list_input_devices()
    if isinstance(wanted, int):
        found = next((d for d in devices if d.index == wanted), None)
    else:
        folded = wanted.casefold()
        found = (
            next((d for d in devices if d.name.casefold() == folded), None)
            or server_input(wanted, devices)
            or next((d for d in devices if plain_name(d.name).casefold() == plain_name(wanted).casefold()), None)
            or next((d for d in devices if folded in d.name.casefold()), None)
        )
    if found is not None:
        return found
    names = ", ".join(dict.fromkeys(f"“{d.shown_name}”" for d in devices)) or "none"
    raise AudioDeviceError(f"No input device matches {wanted!r}; available inputs: {names}.")

"""The microphones a user picks from, by the names the sound settings show.

With a sound server (PulseAudio, PipeWire), its inputs are listed by description and opened
through PortAudio's server device (`input_devices.server_input`); its "Monitor of <speakers>"
inputs are left out, unless one is the default. Without one, PortAudio's devices are listed
by name, without ALSA's routes ("default", "sysdefault", "dmix") and without repeats (Windows
lists each device once per host API). The system default is not an entry here: menus add it.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.audio.device_names import ALSA_ALIASES, SERVER_PLUGINS, SoundServerSources, plain_name, read_sound_server
from app.audio.input_devices import InputDevice, list_input_devices, rescan_devices


@dataclass(frozen=True)
class Microphone:
    """`name` is what the user sees, what settings store and what `find_input_device` opens;
    `is_default` marks the system's default input."""

    name: str
    is_default: bool = False


def list_microphones(rescan: bool = False) -> list[Microphone]:
    """The microphones, default marked. `rescan`: where PortAudio reaches no sound server (it may
    have started later, or there is none and PortAudio's own list is shown), PortAudio enumerates
    its devices again first, which it refuses while a stream is open. Through a server, new
    inputs show up without a rescan."""
    devices = list_input_devices()
    if rescan and not _reaches_server(devices) and rescan_devices():
        devices = list_input_devices()
    server = read_sound_server() if _reaches_server(devices) else None
    if server is not None and server.sources:
        return server_microphones(server)
    return portaudio_microphones(devices)


def _reaches_server(devices: list[InputDevice]) -> bool:
    return any(d.name in SERVER_PLUGINS for d in devices)


def server_microphones(server: SoundServerSources) -> list[Microphone]:
    listed = [s for s in server.sources if not s.is_monitor or s.name == server.default]
    return _unique([Microphone(s.description, s.name == server.default) for s in listed])


def portaudio_microphones(devices: list[InputDevice]) -> list[Microphone]:
    own = [d for d in devices if d.name not in SERVER_PLUGINS | ALSA_ALIASES]
    return _unique([Microphone(plain_name(d.name), d.is_default) for d in own])


def _unique(microphones: list[Microphone]) -> list[Microphone]:
    """One entry per name (the first; the default mark kept if any repeat had it)."""
    by_name: dict[str, Microphone] = {}
    for mic in microphones:
        seen = by_name.get(mic.name)
        by_name[mic.name] = Microphone(mic.name, mic.is_default or (seen is not None and seen.is_default))
    return list(by_name.values())

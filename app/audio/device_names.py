"""The sound server's inputs as the user's sound settings show them ("Built-in Audio Analog
Stereo", "Jabra Evolve 20 Mono"), not PortAudio's ALSA plugin names ("pulse", "default").

On Linux the sound server (PulseAudio, or PipeWire's pulse layer) is asked with `pactl`; where it
is not there, callers keep PortAudio's names, minus ALSA's "(hw:0,0)" suffix (`plain_name`).
"""

from __future__ import annotations

import json
import logging
import re
import shutil
import subprocess
from dataclasses import dataclass

PACTL_TIMEOUT_S = 2.0
SERVER_PLUGINS = frozenset({"pulse", "pipewire"})
"""PortAudio (ALSA) devices that are the sound server: opening one records from `PULSE_SOURCE`."""
ALSA_ALIASES = frozenset(
    {
        "default",
        "sysdefault",
        "dmix",
        "dsnoop",
        "samplerate",
        "speexrate",
        "upmix",
        "vdownmix",
        "jack",
        "oss",
        "lavrate",
        "spdif",
        "front",
        "surround40",
    }
)
"""PortAudio (ALSA) names that are routes to some other device, not a device of their own."""
_ALSA_HW_SUFFIX = re.compile(r"\s*\(hw:\d+,\d+\)$")

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ServerSource:
    """One input of the sound server: `name` is its id ("alsa_input.usb-…"), `description` what the
    sound settings call it; `is_monitor` for the "Monitor of <speakers>" inputs."""

    name: str
    description: str
    is_monitor: bool = False


@dataclass(frozen=True)
class SoundServerSources:
    """The sound server's inputs, in its order; `default` is the default source's name ("" = unknown)."""

    default: str = ""
    sources: tuple[ServerSource, ...] = ()

    @property
    def default_description(self) -> str:
        return next((s.description for s in self.sources if s.name == self.default), "")


def plain_name(portaudio_name: str) -> str:
    """A PortAudio device name without ALSA's "(hw:1,0)", which changes with the plugging order."""
    return _ALSA_HW_SUFFIX.sub("", portaudio_name)


def _pactl(*args: str) -> str:
    done = subprocess.run(["pactl", *args], capture_output=True, text=True, timeout=PACTL_TIMEOUT_S, check=True)
    return done.stdout


def parse_sources_json(listing: str) -> tuple[ServerSource, ...]:
    """`pactl -f json list sources` output -> the sources."""
    return tuple(
        ServerSource(str(s["name"]), str(s.get("description") or s["name"]), bool(s.get("monitor_source")))
        for s in json.loads(listing)
    )


def parse_sources(listing: str) -> tuple[ServerSource, ...]:
    """`pactl list sources` (text, for pactl before 16) output -> the sources."""
    sources = []
    for block in re.split(r"^Source #\d+\s*$", listing, flags=re.MULTILINE)[1:]:
        name = re.search(r"^\s*Name: (.+)$", block, re.MULTILINE)
        description = re.search(r"^\s*Description: (.+)$", block, re.MULTILINE)
        monitor = re.search(r"^\s*Monitor of Sink: (.+)$", block, re.MULTILINE)
        if name:
            sources.append(
                ServerSource(
                    name.group(1).strip(),
                    (description or name).group(1).strip(),
                    bool(monitor and monitor.group(1).strip() != "n/a"),
                )
            )
    return tuple(sources)


def _read_sources() -> tuple[ServerSource, ...]:
    try:
        return parse_sources_json(_pactl("-f", "json", "list", "sources"))
    except subprocess.CalledProcessError:  # pactl before 16 has no JSON output
        log.info("pactl has no JSON output; reading its text", exc_info=True)
        return parse_sources(_pactl("list", "sources"))


def read_sound_server() -> SoundServerSources | None:
    """The sound server's sources, or None when there is no `pactl` or no server answers."""
    if shutil.which("pactl") is None:
        return None
    try:
        sources = _read_sources()
        default = re.search(r"^Default Source: (.+)$", _pactl("info"), re.MULTILINE)
    except (OSError, ValueError, KeyError, subprocess.SubprocessError):
        log.info("the sound server's sources are not available", exc_info=True)
        return None
    return SoundServerSources(default.group(1).strip() if default else "", sources)

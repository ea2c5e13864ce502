"""Microphone names as the user's sound settings show them ("Built-in Audio Analog Stereo"),
not PortAudio's ALSA plugin names ("pulse", "default").

On Linux the sound server (PulseAudio, or PipeWire's pulse layer) is asked with `pactl`; where
it is not there, the PortAudio name is kept, minus ALSA's "(hw:0,0)" suffix.
"""

from __future__ import annotations

import logging
import re
import shutil
import subprocess
from dataclasses import dataclass, field

PACTL_TIMEOUT_S = 2.0
_SERVER_PLUGINS = ("pulse", "pipewire")
_ALSA_HW_SUFFIX = re.compile(r"\s*\(hw:\d+,\d+\)$")

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SoundServerSources:
    """The sound server's inputs: `descriptions` maps source names to descriptions;
    `default` is the default source's name ("" = unknown)."""

    default: str = ""
    descriptions: dict[str, str] = field(default_factory=dict)

    @property
    def default_description(self) -> str:
        return self.descriptions.get(self.default, "")


def _pactl(*args: str) -> str:
    done = subprocess.run(["pactl", *args], capture_output=True, text=True, timeout=PACTL_TIMEOUT_S, check=True)
    return done.stdout


def parse_sources(listing: str) -> dict[str, str]:
    """`pactl list sources` output -> {source name: description}."""
    names = re.findall(r"^\s*Name: (.+)$", listing, re.MULTILINE)
    descriptions = re.findall(r"^\s*Description: (.+)$", listing, re.MULTILINE)
    return dict(zip(names, descriptions, strict=False))


def read_sound_server() -> SoundServerSources | None:
    """The sound server's sources, or None when there is no `pactl` or no server answers."""
    if shutil.which("pactl") is None:
        return None
    try:
        sources = parse_sources(_pactl("list", "sources"))
        default = re.search(r"^Default Source: (.+)$", _pactl("info"), re.MULTILINE)
    except (OSError, subprocess.SubprocessError):
        log.info("the sound server's source names are not available", exc_info=True)
        return None
    return SoundServerSources(default.group(1).strip() if default else "", sources)


def device_label(name: str, server: SoundServerSources | None) -> str:
    """What to call the PortAudio input `name` in menus."""
    described = server.default_description if server is not None else ""
    if name in _SERVER_PLUGINS:
        return f"{described} (sound server)" if described else "Sound server input"
    if name == "default":
        return f"System default: {described}" if described else "System default input"
    if name == "sysdefault":
        return "Default sound card (bypasses the sound server)"
    return _ALSA_HW_SUFFIX.sub("", name)

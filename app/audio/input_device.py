"""An audio input device as PortAudio lists it: plain data, free of NumPy and PortAudio, so
that the window's device menus import it without loading the audio stack."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class InputDevice:
    """One input device as PortAudio lists it. `default_rate` is in Hz; `label` is what menus
    call it (the sound server's description where there is one); `name` is what is stored."""

    index: int
    name: str
    host_api: str
    channels: int
    default_rate: float
    is_default: bool
    label: str = ""

    @property
    def shown_name(self) -> str:
        return self.label or self.name

"""Microphone capture: sounddevice InputStream -> mono float32 -> `RingBuffer`.

The stream runs at 16 kHz when the device offers it, otherwise at the device's default rate;
the consumer resamples off the callback (see `app.audio.resampler`). The callback only mixes
down into a preallocated scratch array and copies into the ring: no allocation of audio buffers,
no logging, no locks. PortAudio problems surface as `AudioDeviceError` with a message a user
can act on.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from app.audio.device_errors import portaudio_sentence
from app.audio.input_devices import (
    AudioDeviceError,
    InputDevice,
    count_open_stream,
    default_input_device,
    find_input_device,
    list_input_devices,
    load_sounddevice,
    opening_stream,
    rescan_devices,
)
from app.audio.ring_buffer import RingBuffer

__all__ = [
    "AudioDeviceError",
    "CaptureOptions",
    "InputDevice",
    "MicrophoneCapture",
    "default_input_device",
    "find_input_device",
    "list_input_devices",
    "load_sounddevice",
    "rescan_devices",
]

PREFERRED_RATE = 16_000


log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CaptureOptions:
    """How to open the microphone.

    `device` is a name (substring, case-insensitive), an index, or None for the default input.
    `block_s` is the callback block length in seconds; `ring_s` the ring capacity in seconds.
    `stall_s`: a started stream whose callbacks stop for this long counts as lost (ALSA/PulseAudio
    do not always end the stream when a device or the sound server goes away).
    """

    device: str | int | None = None
    block_s: float = 0.02
    ring_s: float = 20.0
    latency: str = "low"
    stall_s: float = 3.0


class MicrophoneCapture:
    """Streams one input device into a `RingBuffer` at `self.sample_rate` Hz, mono float32.

    `start()` opens the device; `stop()` closes it and closes the ring. `lost` becomes True when
    the stream ends without `stop()` (device unplugged, server gone); `error` then says why.
    """

    def __init__(self, options: CaptureOptions = CaptureOptions()) -> None:
        self.options = options
        self.device = find_input_device(options.device)
        self._sd = load_sounddevice()
        self._counted = False
        with opening_stream(self.device.source):  # no rescan meanwhile; the server input chosen
            self.sample_rate = self._pick_rate()
            self.channels = 1 if self._mono_ok() else min(self.device.channels, 2)
            self._setup(options)
            count_open_stream(+1)
            self._counted = True

    def _setup(self, options: CaptureOptions) -> None:
        block = max(1, round(options.block_s * self.sample_rate))
        self.ring = RingBuffer(int(options.ring_s * self.sample_rate), self.sample_rate)
        self._scratch = np.zeros(block * 4, dtype=np.float32)
        self._status_overflows = 0
        self._callbacks = 0
        self._stopping = False
        self._started = False
        self._started_at = 0.0
        self._finished = threading.Event()
        self.error: str | None = None
        self._stream = self._open(block)

    def _check(self, rate: float, channels: int) -> bool:
        try:
            self._sd.check_input_settings(device=self.device.index, samplerate=rate, channels=channels, dtype="float32")
        except Exception:  # PortAudio raises several types for "unsupported"
            log.info("%s refuses %s Hz x %d channels", self.device.name, rate, channels, exc_info=True)
            return False
        return True

    def _pick_rate(self) -> int:
        if self._check(PREFERRED_RATE, 1) or self._check(PREFERRED_RATE, 2):
            return PREFERRED_RATE
        return int(self.device.default_rate)

    def _mono_ok(self) -> bool:
        return self._check(self.sample_rate, 1)

    def _open(self, block: int) -> Any:
        try:
            return self._sd.InputStream(
                device=self.device.index,
                samplerate=self.sample_rate,
                channels=self.channels,
                dtype="float32",
                blocksize=block,
                latency=self.options.latency,
                callback=self._callback,
                finished_callback=self._on_finished,
            )
        except Exception as exc:
            log.warning("opening the microphone %r failed", self.device.name, exc_info=True)
            raise AudioDeviceError(
                f"Could not open the microphone “{self.device.shown_name}”: {portaudio_sentence(exc)}"
            ) from exc

    def _callback(self, indata: NDArray[np.float32], frames: int, time: Any, status: Any) -> None:
        """PortAudio thread: mix down and copy into the ring. No allocation, logging or locks."""
        if status.input_overflow:
            self._status_overflows += 1
        if self.channels == 1:
            self.ring.write(indata[:, 0])
        else:
            out = self._scratch[:frames]
            np.sum(indata, axis=1, out=out)
            out *= 1.0 / self.channels
            self.ring.write(out)
        self._callbacks += 1

    def _lost_message(self) -> str:
        return f"The microphone “{self.device.shown_name}” stopped delivering audio (unplugged?)."

    def _release(self) -> None:
        """The stream is closed or dead: PortAudio may be re-initialised again."""
        if self._counted:
            self._counted = False
            count_open_stream(-1)

    def _on_finished(self) -> None:
        if not self._stopping:
            self.error = self._lost_message()
            log.info("device lost: %s", self.error)  # info: the session tells the user itself
            self._release()
        self.ring.close()
        self._finished.set()

    @property
    def callbacks(self) -> int:
        """Number of callbacks so far (0 until the device really delivers audio)."""
        return self._callbacks

    @property
    def overflows(self) -> int:
        """Blocks lost: PortAudio input overflows plus ring-buffer overflows."""
        return self._status_overflows + self.ring.overflow_blocks

    @property
    def lost(self) -> bool:
        return self.error is not None

    def start(self) -> None:
        try:
            self._stream.start()
            self._started_at = time.monotonic()
            self._started = True
            log.info("microphone %r started: %d Hz, %d channel(s)", self.device.name, self.sample_rate, self.channels)
        except Exception as exc:
            log.warning("starting the microphone %r failed", self.device.name, exc_info=True)
            self.stop()
            raise AudioDeviceError(
                f"Could not start the microphone “{self.device.shown_name}”: {portaudio_sentence(exc)}"
            ) from exc

    def stop(self) -> None:
        """Stop and close the stream; the ring is closed so the consumer can flush."""
        self._stopping = True
        try:
            self._stream.stop()
            self._stream.close()
        except Exception:  # the device may already be gone; the audio we have is what matters
            log.info("closing the microphone stream failed", exc_info=True)
        self._release()
        self.ring.close()

    def check_alive(self) -> None:
        """Raise `AudioDeviceError` if the stream died or stalled (device lost) without `stop()`."""
        if self.error is None and self._started and not self._stopping:
            last = self.ring.last_write_time or self._started_at
            stalled = time.monotonic() - last > self.options.stall_s
            if stalled or not self._stream.active:
                self.error = self._lost_message()
                self._release()
                self.ring.close()
        if self.error is not None:
            raise AudioDeviceError(self.error)

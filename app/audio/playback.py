"""Playing audio from a chosen time onward through the default output (sounddevice; Qt-free).

The review view plays a clicked word from its start: `Player.play(audio, rate, start_s)` opens an
output stream at `start_s * rate` and the stream's callback hands out the samples from there
until the end or `stop()`. `position` is the next sample the output will be given, so a caller
(or a test on a machine with no sound card, through a null sink) sees where playback is.
"""

from __future__ import annotations

import enum
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

log = logging.getLogger(__name__)

BLOCK_SAMPLES = 1024
"""Samples per output callback (64 ms at 16 kHz): short enough that Stop is heard at once."""


class PlaybackState(enum.Enum):
    STOPPED = "stopped"
    PLAYING = "playing"


class PlaybackError(RuntimeError):
    """No output could be opened (no sound device or server); the message is user-facing."""


@dataclass(frozen=True)
class PlayRequest:
    """`audio`: mono float32 [n_samples] at `sample_rate` Hz; playback starts at `start_s` seconds."""

    audio: NDArray[np.float32]
    sample_rate: int
    start_s: float

    def __post_init__(self) -> None:
        if self.audio.ndim != 1:
            raise ValueError(f"audio must be mono [n_samples], got shape {self.audio.shape}")
        if self.sample_rate <= 0 or self.start_s < 0:
            raise ValueError(f"bad sample rate {self.sample_rate} or start {self.start_s}")

    @property
    def start_sample(self) -> int:
        return min(len(self.audio), round(self.start_s * self.sample_rate))


StreamFactory = Callable[..., Any]
"""Opens an output stream as `sounddevice.OutputStream(samplerate=, channels=, dtype=, blocksize=, callback=)`."""


def _sounddevice_stream(**kwargs: Any) -> Any:
    import sounddevice

    return sounddevice.OutputStream(**kwargs)


class Player:
    """One playback at a time; a new `play` stops the one before."""

    def __init__(self, open_stream: StreamFactory = _sounddevice_stream) -> None:
        self._open_stream = open_stream
        self._lock = threading.Lock()
        self._stream: Any = None
        self._audio: NDArray[np.float32] = np.zeros(0, dtype=np.float32)
        self._position = 0
        self.start_sample = 0
        """Where the latest playback started (samples into its audio)."""

    @property
    def position(self) -> int:
        """The next sample the output gets (samples into the audio)."""
        with self._lock:
            return self._position

    @property
    def state(self) -> PlaybackState:
        with self._lock:
            playing = self._stream is not None and self._position < len(self._audio)
        return PlaybackState.PLAYING if playing else PlaybackState.STOPPED

    def play(self, request: PlayRequest) -> int:
        """Start playing `request.audio` from `request.start_s`; returns the start sample.
        Raises PlaybackError when no output can be opened."""
        self.stop()
        with self._lock:
            self._audio = np.ascontiguousarray(request.audio, dtype=np.float32)
            self._position = self.start_sample = request.start_sample
        try:
            stream = self._open_stream(
                samplerate=request.sample_rate,
                channels=1,
                dtype="float32",
                blocksize=BLOCK_SAMPLES,
                callback=self._fill,
            )
            stream.start()
        except Exception as exc:  # PortAudioError, or PortAudio missing altogether (OSError)
            log.exception("Opening the audio output failed")
            raise PlaybackError(f"The audio could not be played: no sound output is available ({exc}).") from exc
        with self._lock:
            self._stream = stream
        return self.start_sample

    def stop(self) -> None:
        """Stop at once (nothing to do when nothing plays)."""
        with self._lock:
            stream, self._stream = self._stream, None
        if stream is not None:
            try:
                stream.abort()
                stream.close()
            except Exception:
                log.exception("Closing the audio output failed")

    def _fill(self, outdata: NDArray[np.float32], frames: int, _time: Any, _status: Any) -> None:
        """The output's callback (its own thread): the next `frames` samples, silence after the end."""
        with self._lock:
            chunk = self._audio[self._position : self._position + frames]
            self._position += len(chunk)
        outdata[: len(chunk), 0] = chunk
        outdata[len(chunk) :, 0] = 0.0

"""Test microphone: the chosen microphone's level while the app is idle, so a user can check it
before dictating (as the audio settings of OBS, Zoom or Discord do).

Only on request (the record bar's "Test microphone" button): opening a microphone lights the
desktop's "microphone in use" indicator and switches a Bluetooth headset to its call profile, so
the app does not hold one open merely because its window is shown. The window stops the test when
it is hidden, when recording starts and when another microphone is chosen (the test goes on with
that one). Privacy: the audio is only measured, in memory; nothing is kept or written.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QObject, QTimer, Signal

from app.controller.ports import AudioSource

log = logging.getLogger(__name__)

POLL_MS = 33
LEVEL_WINDOW_S = 0.05
"""The meter shows the peak of the newest 50 ms, as while dictating (`app.controller.live`)."""


class LevelProbe(Protocol):
    """An open microphone measured by `level()` (0..1); `close()` lets it go."""

    def level(self) -> float: ...

    def close(self) -> None: ...


ProbeOpener = Callable[[str | None], LevelProbe]
"""Opens the named microphone (None = the system default); raises when it cannot."""


class CaptureProbe:
    """The real microphone, opened with the dictation's own capture; the audio read for the level
    is released at once (the ring never fills, nothing is kept)."""

    def __init__(self, device: str | None) -> None:
        from app.controller.live import open_source  # PortAudio and NumPy: only once asked

        self._capture = open_source(AudioSource(device=device))
        self._capture.start()

    def level(self) -> float:
        check = getattr(self._capture, "check_alive", None)
        if check is not None:
            check()  # unplugged or the sound server gone: AudioDeviceError
        ring = self._capture.ring
        end = ring.written
        start = max(ring.released, end - int(LEVEL_WINDOW_S * ring.sample_rate))
        peak = float(abs(ring.read(start, end)).max()) if end > start else 0.0  # NumPy's abs
        ring.release(end)
        return peak

    def close(self) -> None:
        self._capture.stop()


class MicrophoneTest(QObject):
    """Measures one microphone while `running`; `level` 0..1 about 30 times a second, `problem` a
    one-line sentence when the microphone cannot be opened or stops ("" when it works)."""

    level = Signal(float)
    running_changed = Signal(bool)
    problem = Signal(str)

    def __init__(self, open_probe: ProbeOpener = CaptureProbe, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._open = open_probe
        self._probe: LevelProbe | None = None
        self._timer = QTimer(self, interval=POLL_MS)
        self._timer.timeout.connect(self._poll)

    @property
    def running(self) -> bool:
        return self._probe is not None

    def start(self, device: str | None) -> None:
        """Open `device` (None = the system default) and show its level; a microphone already
        under test is closed first."""
        self._close()
        try:
            self._probe = self._open(device)
        except Exception as exc:  # no device, busy, PortAudio missing: one quiet line
            log.info("testing the microphone %r failed", device, exc_info=True)
            self._stopped(_one_line(exc))
            return
        self._timer.start()
        self.problem.emit("")
        self.running_changed.emit(True)

    def stop(self) -> None:
        """Close the microphone (nothing happens when none is open)."""
        if self._probe is not None:
            self._close()
            self._stopped("")

    def _close(self) -> None:
        self._timer.stop()
        probe, self._probe = self._probe, None
        if probe is not None:
            try:
                probe.close()
            except Exception:
                log.info("closing the tested microphone failed", exc_info=True)

    def _stopped(self, problem: str) -> None:
        self.level.emit(0.0)
        self.problem.emit(problem)
        self.running_changed.emit(False)

    def _poll(self) -> None:
        if self._probe is None:
            return
        try:
            level = self._probe.level()
        except Exception as exc:  # the device went away while tested
            log.info("the tested microphone stopped", exc_info=True)
            self._close()
            self._stopped(_one_line(exc))
            return
        self.level.emit(max(0.0, min(1.0, level)))


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or "The microphone could not be opened."

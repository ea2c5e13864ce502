"""Progress of a model download: bytes, MB/s and time left, and the cancel check."""

from __future__ import annotations

import enum
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

_RATE_WINDOW_S = 5.0  # MB/s over the last few seconds: steady, yet follows a changing line


class Phase(enum.Enum):
    """The steps of a model download, in order (see each value's comment)."""

    CHECKING = "checking"  # repository info, free space
    DOWNLOADING = "downloading"
    VERIFYING = "verifying"  # sha256 against the hub's
    INSTALLING = "installing"  # import_model: copy and read the weights
    CONVERTING = "converting"  # ONNX graphs at the chosen precision
    DONE = "done"


@dataclass(frozen=True)
class Progress:
    """`done_bytes`/`total_bytes`: the whole download (all files); `rate_bps`: bytes per second
    over the last seconds (0 before two samples); `eta_s`: seconds left (None while unknown)."""

    phase: Phase
    done_bytes: int = 0
    total_bytes: int = 0
    rate_bps: float = 0.0
    eta_s: float | None = None
    file: str = ""

    def line(self) -> str:
        """'downloading model.bin: 42.0 / 145.2 MB, 12.3 MB/s, 9 s left' (or the phase alone)."""
        if self.phase is not Phase.DOWNLOADING:
            return f"{self.phase.value} {self.file}".strip()
        eta = f", {self.eta_s:.0f} s left" if self.eta_s is not None else ""
        return (
            f"downloading {self.file}: {self.done_bytes / 1e6:.1f} / {self.total_bytes / 1e6:.1f} MB, "
            f"{self.rate_bps / 1e6:.1f} MB/s{eta}"
        )


class DownloadCancelled(Exception):
    """The user cancelled; the download's staging folder is removed."""


ProgressCallback = Callable[[Progress], None]


class ByteMeter:
    """Counts the bytes of the whole download; checks `cancel` at every chunk."""

    def __init__(self, total_bytes: int, done_bytes: int, report: ProgressCallback, cancel: threading.Event) -> None:
        self.total_bytes, self.done_bytes = total_bytes, done_bytes
        self.file = ""
        self._report, self._cancel = report, cancel
        self._samples: deque[tuple[float, int]] = deque()

    def add(self, count: int) -> None:
        if self._cancel.is_set():
            raise DownloadCancelled("download cancelled")
        self.done_bytes += count
        now = time.monotonic()
        self._samples.append((now, self.done_bytes))
        while self._samples and now - self._samples[0][0] > _RATE_WINDOW_S:
            self._samples.popleft()
        first_t, first_b = self._samples[0]
        rate = (self.done_bytes - first_b) / (now - first_t) if now > first_t else 0.0
        left = max(0, self.total_bytes - self.done_bytes)
        eta = left / rate if rate > 0 else None
        self._report(Progress(Phase.DOWNLOADING, self.done_bytes, self.total_bytes, rate, eta, self.file))

    def bar_factory(self) -> Callable[..., _Bar]:
        """What huggingface_hub's http_get takes as `tqdm_class`: a callable making a bar object
        (not a tqdm subclass, so http_get calls it with tqdm's keyword arguments only)."""
        return lambda **_kwargs: _Bar(self)


class _Bar:
    """The duck-typed progress bar http_get drives: update(n), and a context manager."""

    def __init__(self, meter: ByteMeter) -> None:
        self._meter = meter

    def update(self, count: float | None = 1) -> None:
        self._meter.add(int(count or 0))

    def close(self) -> None:
        pass

    def __enter__(self) -> _Bar:
        return self

    def __exit__(self, *exc: Any) -> None:
        pass

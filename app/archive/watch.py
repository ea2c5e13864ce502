"""Watch folders: media files that are new or changed, reported once they have stopped growing.

A file is ready when its size and modification time have not changed for `settle_s` seconds
(a recorder or a copy still writing it keeps changing them); it is reported once, and again
only when its content changes after that. Polling, not inotify: it works the same on network
shares and on every platform, and a poll of a few thousand files costs milliseconds.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from app.archive.inputs import list_inputs

DEFAULT_SETTLE_S = 5.0


@dataclass
class FolderWatcher:
    """`folders`: watched recursively; `settle_s`: seconds a file must stay unchanged."""

    folders: Sequence[Path]
    settle_s: float = DEFAULT_SETTLE_S
    _seen: dict[Path, tuple[int, int, float]] = field(default_factory=dict)
    """path -> (size, mtime_ns, monotonic time that state was first seen)."""
    _reported: dict[Path, tuple[int, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.settle_s < 0:
            raise ValueError(f"settle time must be >= 0 s, not {self.settle_s}")

    def poll(self, now: float | None = None) -> list[Path]:
        """The files that became ready since the last poll (sorted); `now`: time.monotonic()."""
        now = time.monotonic() if now is None else now
        inputs, _missing = list_inputs([str(f) for f in self.folders if Path(f).is_dir()], recursive=True)
        ready = []
        for path in (item.source for item in inputs):
            try:
                stat = path.stat()
            except OSError:
                continue  # removed while listed
            state = (stat.st_size, stat.st_mtime_ns)
            seen = self._seen.get(path)
            if seen is None or seen[:2] != state:
                self._seen[path] = (*state, now)
                continue
            if now - seen[2] >= self.settle_s and stat.st_size > 0 and self._reported.get(path) != state:
                self._reported[path] = state
                ready.append(path)
        return sorted(ready)

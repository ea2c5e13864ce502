"""How much of the CPU other programs are using, and whether worker threads should spin.

onnxruntime's worker threads can busy-wait between the ops of a run (spinning). On free cores
that is the fastest way to run a decoder step's many small ops; when another program wants a
core, a spinning thread holds it, the scheduler takes turns, and a run slows by far more than
the core it lost. So threads spin only while other programs leave the cores free.

The measure is Linux's /proc/stat (every core's busy time, the hypervisor's steal included)
minus this process's own CPU time, between two readings at least `CHECK_EVERY_S` apart: no
thread, no sleep, one small read per check. Elsewhere there is no reading and threads keep
spinning.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

PROC_STAT = Path("/proc/stat")
BUSY_CORES = 0.5
"""Other programs keeping at least this many cores busy (on average) make threads sleep."""
CHECK_EVERY_S = 0.5
"""A new reading at most this often: shorter spans say more about noise than about load."""
_TICKS_PER_S = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass(frozen=True)
class _Reading:
    wall_s: float
    busy_s: float  # every core's busy time, all processes
    own_s: float  # this process's CPU time (all its threads)


def _read() -> _Reading | None:
    """Now, the machine's busy seconds and this process's; None where /proc/stat is missing."""
    try:
        with PROC_STAT.open(encoding="ascii") as stat:
            fields = [int(x) for x in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = (fields + [0] * 8)[:8]
    times = os.times()
    return _Reading(
        time.monotonic(), (user + nice + system + irq + softirq + steal) / _TICKS_PER_S, times.user + times.system
    )


def _others_cores(before: _Reading, after: _Reading) -> float:
    """Cores that other programs kept busy, on average, between two readings."""
    span = after.wall_s - before.wall_s
    # the process's own time and the machine's come from two clocks: near idle the
    # difference can fall a little under 0
    return max(0.0, ((after.busy_s - before.busy_s) - (after.own_s - before.own_s)) / span)


_IMPORTED = _read()
"""The reading taken when this module is imported: the span until the first `SpinChoice` (the
imports after it, the model's load) is the first measure of what other programs use."""
FIRST_SPAN_S = 0.2
"""The shortest span since `_IMPORTED` that decides the first answer."""


class SpinChoice:
    """Whether worker threads should spin now: `spinning()` is cheap enough to call per window.

    The first answer comes from the span since this module was imported, when it is long enough
    (`FIRST_SPAN_S`): the first sessions are built of the right kind, and a run started beside
    another program does not spin through its first windows. Later the answer changes only when
    two readings in a row agree on the new one (a short burst of another program is not worth a
    switch: the first one builds the other kind's sessions).
    """

    def __init__(self, busy_cores: float = BUSY_CORES, every_s: float = CHECK_EVERY_S) -> None:
        self.busy_cores, self.every_s = busy_cores, every_s
        self._last = _read()
        self._spinning = True
        self._votes = 0  # readings in a row that disagree with `_spinning`
        self.others_cores: float | None = None  # cores other programs used over the last span
        if _IMPORTED is not None and self._last is not None and self._last.wall_s - _IMPORTED.wall_s >= FIRST_SPAN_S:
            self.others_cores = _others_cores(_IMPORTED, self._last)
            self._spinning = self.others_cores < busy_cores

    @property
    def current(self) -> bool:
        """The answer now, without a new reading."""
        return self._spinning

    def spinning(self) -> bool:
        if self._last is None or time.monotonic() - self._last.wall_s < self.every_s:
            return self._spinning  # no /proc/stat (never a reading), or too soon for a new one
        now = _read()
        if now is None or now.wall_s - self._last.wall_s < self.every_s:
            return self._spinning
        others = _others_cores(self._last, now)
        self._last, self.others_cores = now, others
        if (others < self.busy_cores) == self._spinning:
            self._votes = 0
        else:
            self._votes += 1
            if self._votes >= 2:
                self._spinning, self._votes = not self._spinning, 0
        return self._spinning

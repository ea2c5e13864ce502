"""SIGTERM and SIGHUP stop a command the way Ctrl-C (SIGINT) does.

Python turns SIGINT into `KeyboardInterrupt`, and every long command already stops cleanly on
it: an archive run keeps its finished transcripts and manifest lines and ends its workers, a
file run writes what it has, dictation flushes its last utterance. SIGTERM (a service manager,
`kill`, a container stopping) and SIGHUP (the terminal closed) otherwise end the process on the
spot, skipping all of that and leaving worker processes behind. Here they raise `StopSignal`, a
`KeyboardInterrupt`, so the same paths run. A signal the process inherited as ignored (`nohup`,
a shell's background job) stays ignored.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class StopSignal(KeyboardInterrupt):
    """A stop asked for by signal `signum` (a `signal.Signals` value)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


_received: list[int] = []
"""The stop signals received, in order: a library that catches the `StopSignal` and raises a
plain `KeyboardInterrupt` in its place (Ray's `ray.get` does) still exits with the right status."""


def exit_status(stop: KeyboardInterrupt) -> int:
    """128 + the signal's number, as a shell reports a process ended by it (Ctrl-C: 130)."""
    if isinstance(stop, StopSignal):
        return 128 + stop.signum
    return 128 + (_received[-1] if _received else signal.SIGINT)


def _raise_stop(signum: int, _frame: FrameType | None) -> None:
    _received.append(signum)
    raise StopSignal(signum)


@contextmanager
def stopping_on_signals() -> Iterator[None]:
    """Within the block (main thread only), SIGTERM and SIGHUP raise `StopSignal` in the main thread."""
    previous = {}
    for signum in STOP_SIGNALS:
        if signal.getsignal(signum) is signal.SIG_DFL:
            previous[signum] = signal.signal(signum, _raise_stop)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


_COUNTED = (signal.SIGINT, *STOP_SIGNALS)
FORCE_AFTER = 3
"""Counted stop signals after which the next one raises (the first stops, the second cancels)."""


@contextmanager
def counting_stop_signals() -> Iterator[list[int]]:
    """Within the block (main thread only), SIGINT, SIGTERM and SIGHUP raise nothing: each is
    appended to the yielded list, which a loop reads between its steps. An exception raised by a
    handler lands wherever the main thread happens to be (mid-print, mid-write), out of reach of
    the one `except` that knows how to stop cleanly; a count is read where stopping is safe. The
    `FORCE_AFTER`-th signal raises `StopSignal` after all, for a loop that no longer reads (a
    third Ctrl-C always ends the process). A signal inherited as ignored stays ignored."""
    received: list[int] = []

    def count(signum: int, _frame: FrameType | None) -> None:
        received.append(signum)
        _received.append(signum)
        if len(received) >= FORCE_AFTER:
            raise StopSignal(signum)

    previous = {}
    for signum in _COUNTED:
        if signal.getsignal(signum) is not signal.SIG_IGN:
            previous[signum] = signal.signal(signum, count)
    try:
        yield received
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)

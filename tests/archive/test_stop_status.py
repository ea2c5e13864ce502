"""The exit status a stopped command reports: 128 + the signal that stopped it, as a shell shows
it, also when a library (Ray's `ray.get`) catches the signal's exception and raises a plain
`KeyboardInterrupt` in its place. Real signals, sent to this process."""

from __future__ import annotations

import os
import signal

import pytest

from app.commands.stop_signals import StopSignal, exit_status, stopping_on_signals


def test_sigterm_is_143_even_when_the_exception_is_replaced() -> None:
    with pytest.raises(StopSignal) as stopped, stopping_on_signals():
        os.kill(os.getpid(), signal.SIGTERM)
    assert exit_status(stopped.value) == 143
    assert exit_status(KeyboardInterrupt()) == 143  # re-raised as a plain KeyboardInterrupt


def test_sighup_is_129() -> None:
    with pytest.raises(StopSignal) as stopped, stopping_on_signals():
        os.kill(os.getpid(), signal.SIGHUP)
    assert exit_status(stopped.value) == 129

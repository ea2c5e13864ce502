"""A stop signal that arrives while `earshot dictate` is writing an event (not waiting for one)
still stops the session cleanly: the handler counts it, the event loop acts on it between events.
Real signals sent to this process; the worker is a scripted fake that answers stop/cancel with
the events a real one sends (the real worker, with the real model and a real virtual microphone,
is in test_dictate_signals.py)."""

from __future__ import annotations

import os
import signal

import pytest

from app.commands.stop_signals import StopSignal, counting_stop_signals, exit_status
from app.dictation.events import DictationEvent, EventType, QueueSink
from app.dictation.session import iter_events


class ScriptedWorker:
    """Sends one commit on start; a stop flushes a FINAL and the SUMMARY, a cancel only the SUMMARY."""

    def __init__(self, sink: QueueSink) -> None:
        self.sink = sink
        self.calls: list[str] = []
        sink(DictationEvent(EventType.COMMIT, " Good morning."))

    def stop(self) -> None:
        self.calls.append("stop")
        self.sink(DictationEvent(EventType.FINAL, " Last words."))
        self.sink(DictationEvent(EventType.SUMMARY))

    def cancel(self) -> None:
        self.calls.append("cancel")
        self.sink(DictationEvent(EventType.SUMMARY))


def test_a_signal_while_an_event_is_written_stops_the_session_with_its_last_words() -> None:
    sink = QueueSink()
    worker = ScriptedWorker(sink)
    seen = []
    with counting_stop_signals() as stops:
        for event in iter_events(worker, sink, stops):  # type: ignore[arg-type]
            seen.append(event.type)
            if event.type is EventType.COMMIT:
                os.kill(os.getpid(), signal.SIGHUP)  # mid-"print": nothing is raised here
    assert stops == [signal.SIGHUP]
    assert worker.calls == ["stop"]
    assert seen == [EventType.COMMIT, EventType.FINAL, EventType.SUMMARY]


def test_a_second_signal_cancels() -> None:
    sink = QueueSink()
    worker = ScriptedWorker(sink)
    worker.stop = lambda: worker.calls.append("stop")  # type: ignore[method-assign]  # a flush that takes a while
    with counting_stop_signals() as stops:
        events = iter_events(worker, sink, stops)  # type: ignore[arg-type]
        assert next(events).type is EventType.COMMIT
        os.kill(os.getpid(), signal.SIGTERM)
        os.kill(os.getpid(), signal.SIGINT)
        assert next(events).type is EventType.SUMMARY
    assert worker.calls == ["cancel"]  # both arrived before the loop looked: the session is cancelled


def test_the_handlers_are_restored_and_an_ignored_signal_stays_ignored() -> None:
    before = signal.getsignal(signal.SIGTERM)
    previous_hup = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with counting_stop_signals() as stops:
            os.kill(os.getpid(), signal.SIGHUP)
            assert signal.getsignal(signal.SIGTERM) is not before
        assert stops == []
        assert signal.getsignal(signal.SIGTERM) is before
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, previous_hup)


def test_a_third_signal_raises_for_a_loop_that_no_longer_reads() -> None:
    with pytest.raises(StopSignal) as stopped, counting_stop_signals() as stops:
        os.kill(os.getpid(), signal.SIGINT)
        os.kill(os.getpid(), signal.SIGINT)
        assert stops == [signal.SIGINT, signal.SIGINT]
        os.kill(os.getpid(), signal.SIGINT)
    assert exit_status(stopped.value) == 130

"""The worker's state is moved by compare-and-set: a cancel is never overwritten by FINISHED.

Without it, the worker thread can read "not cancelled" and then write FINISHED; a cancel from the
caller's thread landing between the two is lost (the session looks finished, not cancelled).
"""

from __future__ import annotations

import threading

import numpy as np
from dictation_helpers import drain

from app.audio.replay import ReplayOptions, ReplaySource
from app.dictation.events import EventType, QueueSink
from app.dictation.live_worker import DictationOptions, DictationWorker
from app.dictation.worker_state import LIVE, WorkerState, WorkerStateCell


def test_cancel_and_finish_racing_from_two_threads_exactly_one_wins_and_the_state_says_which() -> None:
    for _ in range(300):
        cell = WorkerStateCell()
        cell.move(WorkerState.RUNNING, leaving=(WorkerState.CREATED,))
        won: dict[WorkerState, bool] = {}
        start = threading.Barrier(2)

        def move(to: WorkerState, cell: WorkerStateCell = cell, won: dict[WorkerState, bool] = won,
                 start: threading.Barrier = start) -> None:
            start.wait()
            won[to] = cell.move(to, leaving=LIVE)

        threads = [threading.Thread(target=move, args=(s,)) for s in (WorkerState.CANCELLED, WorkerState.FINISHED)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(won.values()) == [False, True]
        assert cell.state is next(state for state, moved in won.items() if moved)


def test_a_cancelled_state_is_not_left_by_the_end_of_the_loop() -> None:
    cell = WorkerStateCell()
    cell.move(WorkerState.RUNNING, leaving=(WorkerState.CREATED,))
    cell.move(WorkerState.STOPPING, leaving=(WorkerState.RUNNING,))
    assert cell.move(WorkerState.CANCELLED, leaving=LIVE)
    assert not cell.move(WorkerState.FINISHED, leaving=LIVE)
    assert cell.state is WorkerState.CANCELLED


class _SourceEndingOnCancel(ReplaySource):
    """A real replay of silence whose end-of-source check waits for the test's cancel: the only
    way to land a cancel exactly while the worker is finishing. Silence never reaches the
    decoder, so none is loaded (`_NoDecoder`)."""

    def __init__(self, cancelled: threading.Event) -> None:
        super().__init__(np.zeros(16000, np.float32), 16000, ReplayOptions(realtime=False))
        self.reached_end, self._cancelled = threading.Event(), cancelled

    def check_alive(self) -> None:
        if self.ring.closed:
            self.reached_end.set()
            self._cancelled.wait(10)
        super().check_alive()


class _NoDecoder:
    """Never called: one second of silence has no speech to decode."""

    tokenizer = None

    def decode_window(self, *args: object, **kwargs: object) -> object:
        raise AssertionError("silence was decoded")


def test_a_cancel_landing_while_the_session_ends_leaves_it_cancelled(vad_model) -> None:  # type: ignore[no-untyped-def]
    cancelled = threading.Event()
    source, sink = _SourceEndingOnCancel(cancelled), QueueSink()
    worker = DictationWorker(source, _NoDecoder(), sink, DictationOptions(realtime=False),  # type: ignore[arg-type]
                             vad_model=vad_model)
    worker.start()
    assert source.reached_end.wait(30)
    worker.cancel()
    cancelled.set()
    assert worker.join(30)
    assert worker.state is WorkerState.CANCELLED
    assert drain(sink)[-1].type is EventType.SUMMARY
    worker.cancel()  # a second cancel changes nothing
    assert worker.state is WorkerState.CANCELLED

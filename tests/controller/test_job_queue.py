"""The file job queue's states, on fake ports (see fake_ports.py for why): each change is a new
frozen snapshot, a job's end is announced once, a cancel of a waiting job ends it at once, a bad
file fails only its own job."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

import pytest
from fake_ports import FakeEngine, FakeLoader, fake_decoder
from pytestqt.qtbot import QtBot

from app.controller.job_records import Job
from app.controller.jobs import JobQueue
from app.controller.ports import EngineConfig
from app.controller.states import JobState
from app.engine.types import DecodeOptions, Precision

CONFIG = (EngineConfig(None, Precision.FP32, None), DecodeOptions())


def _queue(qtbot: QtBot, loader: FakeLoader) -> tuple[JobQueue, list[Job], list[Job]]:
    queue = JobQueue(loader, fake_decoder, lambda: CONFIG)
    changed: list[Job] = []
    finished: list[Job] = []
    queue.job_changed.connect(changed.append)
    queue.job_finished.connect(finished.append)
    return queue, changed, finished


def test_a_job_goes_through_its_states_in_frozen_snapshots_and_ends_once(qtbot: QtBot) -> None:
    queue, changed, finished = _queue(qtbot, FakeLoader())
    [added] = queue.add([Path("talk.wav")])
    qtbot.waitUntil(lambda: queue.pending() == 0, timeout=10_000)
    states = [job.state for job in changed]
    assert states[:3] == [JobState.DECODING, JobState.LOADING_MODEL, JobState.TRANSCRIBING]
    assert states[-1] is JobState.DONE and states.count(JobState.DONE) == 1
    assert [job.state for job in finished] == [JobState.DONE]
    assert added.state is JobState.QUEUED  # what was handed out is never changed afterwards
    with pytest.raises(dataclasses.FrozenInstanceError):
        added.state = JobState.DONE  # type: ignore[misc]
    done = queue.jobs[added.id]
    assert done is finished[0] and done.fraction == 1.0
    assert done.transcript is not None and done.transcript.text.count("words of talk.wav") == 3
    progress = [job.done_s for job in changed if job.state is JobState.TRANSCRIBING]
    assert progress == sorted(progress) and progress[-1] == 3.0
    queue.shutdown()


def test_cancelling_a_waiting_job_ends_it_at_once_and_it_never_runs(qtbot: QtBot) -> None:
    gate = threading.Event()
    engine = FakeEngine(gate)
    queue, _, finished = _queue(qtbot, FakeLoader(engine))
    _, second = queue.add([Path("first.wav"), Path("second.wav")])
    assert engine.started.wait(10)  # the first is being transcribed, the second waits
    queue.cancel(second.id)
    assert [(job.id, job.state) for job in finished] == [(second.id, JobState.CANCELLED)]  # no wait
    gate.set()
    qtbot.waitUntil(lambda: queue.pending() == 0, timeout=10_000)
    assert engine.files == ["first.wav"]
    assert [job.state for job in finished] == [JobState.CANCELLED, JobState.DONE]
    queue.shutdown()


def test_cancelling_the_running_job_stops_it_and_the_next_one_runs(qtbot: QtBot) -> None:
    gate = threading.Event()
    engine = FakeEngine(gate)
    queue, _, finished = _queue(qtbot, FakeLoader(engine))
    first, second = queue.add([Path("first.wav"), Path("second.wav")])
    assert engine.started.wait(10)
    queue.cancel(first.id)
    qtbot.waitUntil(lambda: len(finished) == 1, timeout=10_000)
    gate.set()
    qtbot.waitUntil(lambda: queue.pending() == 0, timeout=10_000)
    assert [(job.id, job.state) for job in finished] == [(first.id, JobState.CANCELLED), (second.id, JobState.DONE)]
    queue.remove(first.id)
    assert list(queue.jobs) == [second.id]
    queue.shutdown()


def test_a_bad_file_fails_its_own_job_with_a_readable_message_and_the_queue_goes_on(qtbot: QtBot) -> None:
    queue, _, finished = _queue(qtbot, FakeLoader())
    bad, _ = queue.add([Path("bad.wav"), Path("good.wav")])
    qtbot.waitUntil(lambda: queue.pending() == 0, timeout=10_000)
    assert [job.state for job in finished] == [JobState.FAILED, JobState.DONE]
    assert queue.jobs[bad.id].error == "Bad.wav is not an audio file"
    queue.shutdown()

"""Worker threads that spin while the cores are free and sleep while another program wants one
(app/engine/runtime/cpu_load.py). The rule runs on scripted /proc/stat readings (a shared test
machine's own load would decide otherwise); the reading itself on the real /proc/stat beside a
real busy program; the switch of sessions on the bundled model. Speed is measured in
bench/compare.py --busy 1, never asserted here."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from earshot_testing import read_wav

from app.engine.runtime import cpu_load
from app.engine.runtime.cpu_load import SpinChoice, _Reading

DATA = Path(__file__).resolve().parents[1] / "data"


@contextmanager
def busy_core() -> Iterator[None]:
    """Another program keeping one core busy."""
    proc = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        proc.kill()
        proc.wait()


def test_a_busy_program_beside_is_read_from_the_machine() -> None:
    choice = SpinChoice(every_s=0.3)
    with busy_core():
        answers = []
        for _ in range(4):
            time.sleep(0.35)
            answers.append(choice.spinning())
        assert choice.others_cores is not None and choice.others_cores >= cpu_load.BUSY_CORES
        assert answers[-1] is False


class ScriptedMachine:
    """/proc/stat readings one second apart: `others` and `own` cores busy in each second."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = _Reading(0.0, 0.0, 0.0)
        monkeypatch.setattr(cpu_load, "_read", lambda: self.now)

    def second(self, others: float, own: float = 0.0) -> None:
        n = self.now
        self.now = _Reading(n.wall_s + 1.0, n.busy_s + others + own, n.own_s + own)


def test_threads_sleep_after_two_busy_readings_and_spin_after_two_free_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    machine = ScriptedMachine(monkeypatch)
    choice = SpinChoice()
    answers = []
    for others in (0.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.2, 0.1, 0.0):
        machine.second(others, own=1.5)
        answers.append(choice.spinning())
    # one busy second is a burst; two in a row switch; the same for free ones
    assert answers == [True, True, True, True, False, False, False, True, True]


def test_this_process_own_work_is_not_another_program(monkeypatch: pytest.MonkeyPatch) -> None:
    machine = ScriptedMachine(monkeypatch)
    choice = SpinChoice()
    for _ in range(3):
        machine.second(0.1, own=1.9)
        assert choice.spinning() is True
    assert choice.others_cores == pytest.approx(0.1)


def test_readings_closer_than_the_check_interval_change_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    machine = ScriptedMachine(monkeypatch)
    choice = SpinChoice(every_s=5.0)
    for _ in range(4):
        machine.second(2.0)
        assert choice.spinning() is True  # 4 s: still one span
    machine.second(2.0)
    choice.spinning()
    assert choice.others_cores == pytest.approx(2.0)


@pytest.mark.parametrize(("others", "span_s", "first"), [(1.0, 0.5, False), (0.1, 0.5, True), (1.0, 0.1, True)])
def test_the_first_answer_comes_from_the_span_since_start_up(
    monkeypatch: pytest.MonkeyPatch, others: float, span_s: float, first: bool
) -> None:
    """Imports and the model's load beside a busy program: the first sessions already sleep;
    a span too short to tell leaves them spinning."""
    monkeypatch.setattr(cpu_load, "_IMPORTED", _Reading(0.0, 0.0, 0.0))
    monkeypatch.setattr(cpu_load, "_read", lambda: _Reading(span_s, (others + 1.0) * span_s, 1.0 * span_s))
    assert SpinChoice().current is first


def test_an_engine_loaded_beside_a_busy_program_starts_with_sleeping_threads() -> None:
    script = (
        "import time\n"
        "from app.engine.runtime import cpu_load\n"
        "time.sleep(0.5)\n"  # the imports and the load of a bigger model, beside the busy core
        "from app.engine.models.loader import load_engine\n"
        "print(load_engine().runtime._session_config.spinning)\n"
    )
    with busy_core():
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                              cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split()[-1] == "False"


class Answers:
    """A spin choice that says what it is told (the runtime's switch, on any machine load)."""

    def __init__(self, spinning: bool) -> None:
        self.answer, self.others_cores = spinning, 1.0

    def spinning(self) -> bool:
        return self.answer


def test_a_transcription_keeps_its_text_when_its_threads_switch() -> None:
    from app.engine.models.loader import load_engine
    from app.engine.types import DecodeOptions

    engine = load_engine()  # its own engine: the session's shared one keeps its threads
    runtime = engine.runtime
    audio = read_wav(DATA / "espeak_meeting.wav")

    def text() -> str:
        return " ".join(s.text for s in engine.transcribe(audio, DecodeOptions(beam_size=1, word_timestamps=True))[0])

    before = text()
    first_encoder, started_spinning = runtime.encoder, runtime._session_config.spinning  # as the load decided
    runtime._spin_choice = Answers(not started_spinning)  # type: ignore[assignment]
    assert text() == before
    assert runtime._session_config.spinning is not started_spinning and runtime.encoder is not first_encoder
    runtime._spin_choice = Answers(started_spinning)  # type: ignore[assignment]
    assert text() == before and runtime._session_config.spinning is started_spinning
    assert runtime.encoder is first_encoder  # kept: switching back builds nothing

"""Fake engine, loader and audio decoder for the controller's state-machine tests.

Why fakes here: these tests are about the controller's states (which job is announced when,
which load wins), not about recognition; the real engine and decoder are covered by
tests/engine and tests/ui. A fake engine can also be held at an exact point (`gate`) so a
cancel or a second load lands there every time, and the tests run in about a second.
The fakes satisfy the real ports (`app.controller.ports`), so mypy checks them against them.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from app.controller.ports import EngineConfig, EngineDescription, FileAudio, LoadedEngine, ProgressCallback
from app.engine.transcribe.speech_map import SpeechDetector
from app.engine.types import CancelToken, DecodeOptions, Segment, TranscriptionInfo, WindowResult

SECONDS_PER_FILE = 3.0


class FakeTokenizer:
    def encode(self, text: str) -> list[int]:
        return [ord(c) for c in text]


class FakeEngine:
    """Says "words of <file>" for every file, in one segment per second of its 3 s; waits at
    `gate` (if given) before the first segment, checking `cancel` as the real loop does."""

    tokenizer = FakeTokenizer()

    def __init__(self, gate: threading.Event | None = None) -> None:
        self.gate = gate
        self.started = threading.Event()
        self.files: list[str] = []

    def transcribe(
        self,
        audio: NDArray[np.float32] | Iterable[NDArray[np.float32]],
        options: DecodeOptions,
        cancel: CancelToken | None = None,
        on_progress: ProgressCallback | None = None,
        *,
        duration_s: float | None = None,
        speech: SpeechDetector | None = None,
    ) -> tuple[Iterator[Segment], TranscriptionInfo]:
        name = str(next(iter(audio)))  # the fake decoder's one "chunk" is the file's name
        self.files.append(name)
        return self._segments(name, cancel), TranscriptionInfo("en", 1.0, SECONDS_PER_FILE)

    def _segments(self, name: str, cancel: CancelToken | None) -> Iterator[Segment]:
        self.started.set()
        while self.gate is not None and not self.gate.wait(0.01):
            if cancel is not None:
                cancel.raise_if_cancelled()
        for second in range(int(SECONDS_PER_FILE)):
            yield Segment(second, float(second), second + 1.0, f" words of {name}")

    def decode_window(self, audio: NDArray[np.float32], options: DecodeOptions,
                      prompt_tokens: Sequence[int] = (), cancel: CancelToken | None = None) -> WindowResult:
        raise AssertionError("these tests transcribe files only")


class FakeLoader:
    """Loads a `FakeEngine` per call; raises `fail[model]` for a model named there; a model
    named in `gates` waits for that event (a slow load, superseded by a newer one)."""

    def __init__(self, engine: FakeEngine | None = None) -> None:
        self.engine = engine or FakeEngine()
        self.calls: list[EngineConfig] = []
        self.fail: dict[str | None, Exception] = {}
        self.gates: dict[str | None, threading.Event] = {}

    def __call__(self, config: EngineConfig) -> LoadedEngine:
        self.calls.append(config)
        if config.model in self.gates:
            self.gates[config.model].wait(10)
        if config.model in self.fail:
            raise self.fail[config.model]
        return LoadedEngine(self.engine, EngineDescription(config.model or "bundled", "fp32", "cpu"))


def fake_decoder(path: Path) -> FileAudio:
    """A file "decodes" to one chunk, its name; a name starting with "bad" cannot be read."""
    if path.name.startswith("bad"):
        raise ValueError(f"{path.name} is not an audio file")
    return FileAudio(chunks=iter([path.name]), duration_s=SECONDS_PER_FILE)  # type: ignore[list-item]

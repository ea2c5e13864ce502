"""Helpers for the dictation tests: replay audio through the real worker and collect events."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from app.audio.replay import ReplayOptions, ReplaySource
from app.dictation.audio_journal import AudioJournal
from app.dictation.events import DictationEvent, EventType, QueueSink
from app.dictation.journaled_source import JournaledSource
from app.dictation.live_worker import DictationOptions, DictationWorker
from app.dictation.policy import streaming_decode_options


@dataclass
class Replayed:
    events: list[DictationEvent]
    worker: DictationWorker

    @property
    def committed(self) -> str:
        """The transcript as a user gets it: COMMIT and FINAL texts joined."""
        return "".join(e.text for e in self.events if e.type in (EventType.COMMIT, EventType.FINAL))

    def of_type(self, kind: EventType) -> list[DictationEvent]:
        return [e for e in self.events if e.type is kind]


def drain(sink: QueueSink) -> list[DictationEvent]:
    events = []
    while not sink.queue.empty():
        events.append(sink.queue.get())
    return events


def replay(engine, audio: np.ndarray, options: DictationOptions | None = None,  # type: ignore[no-untyped-def]
           timeout_s: float = 600.0, journal: AudioJournal | None = None) -> Replayed:
    """Replay 16 kHz `audio` as fast as decoding allows through the real worker and engine
    (journaled to `journal` as the app journals its sessions)."""
    options = options or DictationOptions(realtime=False)
    source = ReplaySource(audio, 16000, ReplayOptions(realtime=options.realtime))
    sink = QueueSink()
    worker = DictationWorker(JournaledSource(source, journal) if journal else source, engine, sink, options)
    worker.start()
    assert worker.join(timeout_s), "the worker did not finish"
    return Replayed(drain(sink), worker)


def offline_text(engine, audio: np.ndarray) -> str:  # type: ignore[no-untyped-def]
    """Offline (whole-file) transcription with the same greedy decoding the stream uses."""
    segments, _ = engine.transcribe(audio, streaming_decode_options())
    return "".join(s.text for s in segments)

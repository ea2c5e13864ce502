"""Building a dictation session from parts: a source (microphone or file), an engine, a sink.

The composition root (and `earshot dictate`) call these; tests pass their own parts to
`DictationWorker` directly.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from app import user_dirs
from app.audio.capture import CaptureOptions, MicrophoneCapture
from app.audio.file_decoder import decode_audio
from app.audio.replay import ReplayOptions, ReplaySource
from app.dictation.audio_journal import AudioJournal
from app.dictation.events import DictationEvent, EventType, QueueSink
from app.dictation.journaled_source import JournaledSource
from app.dictation.live_worker import DictationOptions, DictationWorker
from app.dictation.policy import WindowDecoder
from app.dictation.timeline import RingProducer
from app.engine.types import SAMPLE_RATE


def sessions_dir() -> Path:
    """Where session recordings go: <user data dir>/sessions (EARSHOT_DATA_DIR overrides)."""
    return user_dirs.data_dir() / "sessions"


def new_recording_path() -> Path:
    """A fresh WAV path for this session's audio, named by local date and time."""
    return sessions_dir() / time.strftime("dictation-%Y%m%d-%H%M%S.wav")


def file_source(path: str | Path, realtime: bool) -> ReplaySource:
    """Decode any audio/video file (16 kHz mono) and replay it. Raises AudioDecodeError."""
    audio = decode_audio(path)
    return ReplaySource(audio, SAMPLE_RATE, ReplayOptions(realtime=realtime))


def microphone_source(device: str | int | None = None) -> MicrophoneCapture:
    """Open an input device (None = default). Raises AudioDeviceError with a clear message."""
    return MicrophoneCapture(CaptureOptions(device=device))


def start_session(
    source: RingProducer,
    engine: WindowDecoder,
    options: DictationOptions,
    record: bool = False,
    journal: AudioJournal | None = None,
) -> tuple[DictationWorker, QueueSink]:
    """Start a worker on `source` (its audio journaled to `journal` as it is captured); events
    arrive on the returned sink's queue."""
    if record:
        options = replace(options, record_path=new_recording_path())
    sink = QueueSink()
    worker = DictationWorker(JournaledSource(source, journal) if journal else source, engine, sink, options)
    worker.start()
    return worker, sink


def iter_events(worker: DictationWorker, sink: QueueSink, stops: Sequence[object] = ()) -> Iterator[DictationEvent]:
    """Yield events until the SUMMARY event (included). The first stop asked for (an item added
    to `stops`, e.g. a signal counted by its handler, or Ctrl-C raised while waiting) stops the
    session, flushing the last utterance; a second cancels it."""
    interrupted = 0
    acted_on = 0
    while True:
        try:
            event: DictationEvent | None = sink.queue.get(timeout=0.1)
        except queue.Empty:
            event = None
        except KeyboardInterrupt:
            interrupted += 1
            event = None
        asked = interrupted + len(stops)
        if asked > acted_on:
            acted_on = asked
            if asked == 1:
                worker.stop()
            else:
                worker.cancel()
        if event is None:
            continue
        yield event
        if event.type is EventType.SUMMARY:
            return

"""Stop flushes, cancel abandons, and the session recording keeps every sample."""

from __future__ import annotations

import time
import wave

import numpy as np
from dictation_helpers import drain, replay
from earshot_testing import DATA_DIR, read_wav

from app.audio.replay import ReplayOptions, ReplaySource
from app.dictation.events import EventType, QueueSink
from app.dictation.live_worker import DictationOptions, DictationWorker, WorkerState


def _wait_for_text(sink: QueueSink, events: list, timeout_s: float = 60.0) -> None:  # type: ignore[type-arg]
    deadline = time.monotonic() + timeout_s
    while not any(e.text for e in events if e.type is not EventType.ERROR):
        events += drain(sink)
        assert time.monotonic() < deadline, "no text at all"
        time.sleep(0.05)


def test_stop_mid_utterance_commits_what_was_said(engine) -> None:  # type: ignore[no-untyped-def]
    audio = read_wav(DATA_DIR / "espeak_morning.wav")
    source = ReplaySource(audio, 16000, ReplayOptions(realtime=True))
    sink = QueueSink()
    worker = DictationWorker(source, engine, sink, DictationOptions(realtime=True))
    worker.start()
    events: list = []  # type: ignore[type-arg]
    _wait_for_text(sink, events)
    worker.stop()
    assert worker.join(120)
    events += drain(sink)
    assert worker.state is WorkerState.FINISHED
    assert events[-1].type is EventType.SUMMARY
    assert events[-1].summary is not None and events[-1].summary.audio_s < audio.shape[0] / 16000
    finals = [e for e in events if e.type is EventType.FINAL]
    assert finals, "stop() must end the open utterance with a final decode"
    said = worker.transcript.lower()
    assert "good morning" in said, said


def test_cancel_stops_at_once_and_keeps_committed_text(engine) -> None:  # type: ignore[no-untyped-def]
    audio = np.tile(read_wav(DATA_DIR / "espeak_team.wav"), 6)  # ~29 s
    source = ReplaySource(audio, 16000, ReplayOptions(realtime=False))
    sink = QueueSink()
    worker = DictationWorker(source, engine, sink, DictationOptions(realtime=False))
    worker.start()
    events: list = []  # type: ignore[type-arg]
    _wait_for_text(sink, events)
    worker.cancel()
    assert worker.join(60)
    events += drain(sink)
    assert worker.state is WorkerState.CANCELLED
    assert events[-1].type is EventType.SUMMARY
    committed = "".join(e.text for e in events if e.type in (EventType.COMMIT, EventType.FINAL))
    assert committed == worker.transcript
    assert worker.timeline.written < audio.shape[0]  # it really stopped early


def test_session_recording_keeps_all_audio(engine, tmp_path) -> None:  # type: ignore[no-untyped-def]
    audio = read_wav(DATA_DIR / "espeak_callback.wav")
    path = tmp_path / "sessions" / "s.wav"
    result = replay(engine, audio, DictationOptions(realtime=False, record_path=path))
    assert result.committed
    with wave.open(str(path), "rb") as wav:
        assert wav.getframerate() == 16000 and wav.getnchannels() == 1
        pcm = np.frombuffer(wav.readframes(wav.getnframes()), dtype="<i2")
    assert pcm.shape[0] == audio.shape[0]
    np.testing.assert_allclose(pcm / 32768.0, audio, atol=1e-3)


def test_real_time_decoding_keeps_to_its_compute_share(engine) -> None:  # type: ignore[no-untyped-def]
    """While speech goes on, the step grows to decode time / compute_share, so dictation leaves the
    rest of the machine to the user's programs, however slow the machine is. Bound by construction:
    decodes during speech total at most share x audio plus one decode, and each utterance adds one
    final decode (and one more if a pause turns out not to end it); each step may overshoot by one
    VAD frame. (The default share is 0.45; 0.15 here keeps the bound far below what decoding every
    0.5 s costs, so a worker that ignores the share fails.)"""
    from app.dictation.policy import PolicyOptions

    audio = np.concatenate([read_wav(DATA_DIR / "espeak_team.wav"), read_wav(DATA_DIR / "espeak_weather.wav")])
    options = DictationOptions(policy=PolicyOptions(compute_share=0.15), realtime=True)
    result = replay(engine, audio, options)
    summary = result.events[-1].summary
    assert summary is not None and summary.decodes >= 3
    longest_s = max(e.decode_ms for e in result.events) / 1000
    utterances = max(1, summary.utterances)
    bound = 0.15 + (2 + utterances) * longest_s / summary.audio_s + 0.05
    assert summary.compute_ratio <= bound, (summary.compute_ratio, bound, summary.decodes)

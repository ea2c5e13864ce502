"""The live worker's state machine and events (app/dictation/live_worker.py), driven by a
scripted decoder (fast: no Whisper model).

The decoder is a fake on purpose: it stands in for the Whisper engine so that the worker's
control flow (start, the end of the audio, stop, cancel, a failing decode, a lost device) can
be stepped through and paused at a chosen decode, which a real model cannot be made to do. It
"hears" a fixed sentence, one word every 0.3 s from the start of the window it is given. The
rest is real: a replay of a committed espeak-ng clip, the Silero voice detector, the streaming
policy. The real-model sessions are in test_streaming_replay.py.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np
import pytest
from dictation_helpers import drain
from earshot_testing import DATA_DIR, espeak_clips, read_wav

from app.audio.capture import AudioDeviceError
from app.audio.replay import ReplayOptions, ReplaySource
from app.audio.ring_buffer import RingBuffer
from app.dictation.commit_rule import CommitRule
from app.dictation.events import DictationEvent, EventType, QueueSink
from app.dictation.live_worker import DictationOptions, DictationWorker
from app.dictation.policy import PolicyOptions
from app.dictation.worker_state import WorkerState
from app.engine.types import CancelToken, DecodeOptions, Segment, WindowResult

CLIP = "espeak_weather.wav"
SENTENCE = next(c["text"] for c in espeak_clips() if c["file"] == CLIP).split()  # what is said in it
WORD_EVERY_S = 0.3
WAIT_S = 30.0


class _Tokenizer:
    def encode(self, text: str) -> list[int]:
        return [len(w) for w in text.split()]


class ScriptedDecoder:
    """Returns the words of `SENTENCE` heard by the end of each window (word i ends at
    (i + 1) * 0.3 s). `pause_at`: the decode (1-based) that waits for `release` before it
    answers, after setting `reached`. `fail_at`: the decode that raises. Honours the cancel
    token as the engine does (at the start of the decode)."""

    tokenizer = _Tokenizer()

    def __init__(self, pause_at: int = 0, fail_at: int = 0) -> None:
        self.pause_at, self.fail_at = pause_at, fail_at
        self.reached, self.release = threading.Event(), threading.Event()
        self.calls = 0

    def decode_window(self, audio: np.ndarray, options: DecodeOptions, prompt_tokens: Sequence[int] = (),
                      cancel: CancelToken | None = None) -> WindowResult:
        self.calls += 1
        if self.calls == self.pause_at:
            self.reached.set()
            assert self.release.wait(WAIT_S), "the test never released the decoder"
        if cancel is not None:
            cancel.raise_if_cancelled()
        if self.calls == self.fail_at:
            raise RuntimeError("the decoder broke")
        heard_s = audio.shape[0] / 16000
        n = min(len(SENTENCE), int(heard_s / WORD_EVERY_S))
        text = "".join(" " + w for w in SENTENCE[:n])
        segments = [Segment(0, 0.0, n * WORD_EVERY_S, text)] if n else []
        return WindowResult([], text, segments, "en", 1.0, -0.2, 0.01, 1.2, 0.0)


def options() -> DictationOptions:
    """LocalAgreement-2 without a margin or a hold: what the script says is committed soon."""
    policy = PolicyOptions(commit_rule=CommitRule.LOCAL_AGREEMENT, agreement=2, commit_margin_s=0.0,
                           hold_unfinished_s=0.0, rest_after_s=0.0)
    return DictationOptions(policy=policy, realtime=False)


def clip() -> np.ndarray:
    """4.1 s of espeak-ng speech between 0.5 s of silence on each side."""
    silence = np.zeros(8000, dtype=np.float32)
    return np.concatenate([silence, read_wav(DATA_DIR / CLIP), silence])


def run_session(decoder: ScriptedDecoder, vad_model: object,
                source: ReplaySource | None = None) -> tuple[DictationWorker, QueueSink]:
    source = source or ReplaySource(clip(), 16000, ReplayOptions(realtime=False))
    sink = QueueSink()
    worker = DictationWorker(source, decoder, sink, options(), vad_model=vad_model)  # type: ignore[arg-type]
    worker.start()
    return worker, sink


def committed(events: list[DictationEvent]) -> str:
    return "".join(e.text for e in events if e.type in (EventType.COMMIT, EventType.FINAL))


def test_a_session_runs_to_the_end_of_its_audio_and_reports_every_word_once(vad_model) -> None:  # type: ignore[no-untyped-def]
    decoder = ScriptedDecoder()
    worker, sink = run_session(decoder, vad_model)
    assert worker.state in (WorkerState.RUNNING, WorkerState.FINISHED)
    assert worker.join(WAIT_S)
    events = drain(sink)
    assert worker.state is WorkerState.FINISHED and worker.failure is None
    kinds = [e.type for e in events]
    assert kinds[-1] is EventType.SUMMARY and kinds.count(EventType.SUMMARY) == 1
    assert EventType.ERROR not in kinds
    assert EventType.COMMIT in kinds  # words were committed while the speech went on
    assert worker.summary is not None and kinds.count(EventType.FINAL) == worker.summary.utterances >= 1
    # Every heard word once, in order: committed deltas never repeat or change.
    words = committed(events).split()
    assert [w.strip(".,").lower() for w in words] == [w.strip(".").lower() for w in SENTENCE]
    summary = worker.summary
    assert summary is not None and summary is events[-1].summary
    assert worker.transcript == committed(events) == summary.transcript
    assert decoder.calls >= 4 and summary.decodes == decoder.calls
    assert summary.audio_s == pytest.approx(clip().shape[0] / 16000)  # every sample reached the worker
    assert summary.overflows == 0


def test_a_decoder_failure_ends_the_session_with_an_error_and_keeps_the_committed_text(vad_model) -> None:  # type: ignore[no-untyped-def]
    decoder = ScriptedDecoder(fail_at=5)
    worker, sink = run_session(decoder, vad_model)
    assert worker.join(WAIT_S)
    events = drain(sink)
    assert worker.state is WorkerState.FINISHED
    assert isinstance(worker.failure, RuntimeError)
    errors = [e for e in events if e.type is EventType.ERROR]
    assert [e.text for e in errors] == ["Dictation stopped: the decoder broke"]
    assert events[-1].type is EventType.SUMMARY and events[-2] is errors[0]
    assert committed(events) and worker.transcript == committed(events)  # what was committed stays
    assert decoder.calls == 5  # nothing decodes after the failure


def test_stop_moves_to_stopping_and_the_speech_so_far_is_committed(vad_model) -> None:  # type: ignore[no-untyped-def]
    # A one-second ring: the replay is still feeding when the test stops it, as a microphone would be.
    source = ReplaySource(clip(), 16000, ReplayOptions(realtime=False, ring_s=1.0))
    decoder = ScriptedDecoder(pause_at=3)
    worker, sink = run_session(decoder, vad_model, source)
    assert decoder.reached.wait(WAIT_S)
    worker.stop()
    assert worker.state is WorkerState.STOPPING
    worker.stop()  # a second stop changes nothing
    decoder.release.set()
    assert worker.join(WAIT_S)
    events = drain(sink)
    assert worker.state is WorkerState.FINISHED
    kinds = [e.type for e in events]
    assert EventType.ERROR not in kinds and kinds[-1] is EventType.SUMMARY
    assert kinds.count(EventType.FINAL) == 1  # the utterance in progress ends with the audio
    # The words heard before the stop, and no more; the sentence left open gets its period.
    words = committed(events).split()
    assert 0 < len(words) < len(SENTENCE)
    assert [w.rstrip(".") for w in words] == SENTENCE[: len(words)]
    assert committed(events).endswith(".")


def test_cancel_abandons_the_session_without_a_final_decode(vad_model) -> None:  # type: ignore[no-untyped-def]
    decoder = ScriptedDecoder(pause_at=3)
    worker, sink = run_session(decoder, vad_model)
    assert decoder.reached.wait(WAIT_S)
    worker.cancel()
    assert worker.state is WorkerState.CANCELLED
    assert worker.cancel_token.cancelled
    decoder.release.set()
    assert worker.join(WAIT_S)
    events = drain(sink)
    assert worker.state is WorkerState.CANCELLED and worker.failure is None
    kinds = [e.type for e in events]
    assert EventType.FINAL not in kinds and EventType.ERROR not in kinds
    assert kinds[-1] is EventType.SUMMARY
    assert decoder.calls == 3  # the cancelled decode was the last
    worker.stop()  # stopping a cancelled session leaves it cancelled
    assert worker.state is WorkerState.CANCELLED


class _StallingMicrophone:
    """Stands in for a microphone that delivers the clip and then stalls (its device is gone):
    like MicrophoneCapture, `check_alive` then closes the ring and raises, on every call. The
    worker only asks when no new audio came."""

    overflows = 0

    def __init__(self, audio: np.ndarray) -> None:
        self.audio = audio
        self.ring = RingBuffer(audio.shape[0] + 16000, 16000)
        self.checks = 0

    def start(self) -> None:
        self.ring.write(self.audio)

    def stop(self) -> None:
        self.ring.close()

    def check_alive(self) -> None:
        self.checks += 1
        self.ring.close()
        raise AudioDeviceError("the microphone was unplugged")


def test_a_lost_device_is_reported_once_and_the_session_still_finishes(vad_model) -> None:  # type: ignore[no-untyped-def]
    source = _StallingMicrophone(clip())
    sink = QueueSink()
    worker = DictationWorker(source, ScriptedDecoder(), sink, options(), vad_model=vad_model)
    worker.start()
    assert worker.join(WAIT_S)
    events = drain(sink)
    assert worker.state is WorkerState.FINISHED
    assert source.checks >= 2  # asked again after the loss: still one message
    assert [e.text for e in events if e.type is EventType.ERROR] == ["the microphone was unplugged"]
    assert events[-1].type is EventType.SUMMARY
    assert EventType.FINAL in [e.type for e in events]  # the speech before it is committed
    assert committed(events).split()


class _NoDevice(ReplaySource):
    def start(self) -> None:
        raise AudioDeviceError("no input device")


def test_a_source_that_cannot_start_raises_and_nothing_runs(vad_model) -> None:  # type: ignore[no-untyped-def]
    source = _NoDevice(clip(), 16000)
    sink = QueueSink()
    worker = DictationWorker(source, ScriptedDecoder(), sink, options(), vad_model=vad_model)  # type: ignore[arg-type]
    with pytest.raises(AudioDeviceError, match="no input device"):
        worker.start()
    assert worker.state is WorkerState.CREATED
    assert sink.queue.empty()

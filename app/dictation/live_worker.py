"""The dictation worker thread: source ring -> 16 kHz timeline -> VAD -> policy -> events.

One code path for every source (microphone, real-time replay, fast replay). The worker owns the
engine while it runs; the caller only sees `DictationEvent`s through its sink.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from app.audio.capture import AudioDeviceError
from app.audio.vad import FRAME, SileroVadModel, SpeechSegmenter, VadEvent, VadEventKind, VadOptions
from app.dictation.command_heard import CommandListener
from app.dictation.command_match import CommandOptions
from app.dictation.event_publisher import EventPublisher
from app.dictation.events import EventSink, SessionSummary
from app.dictation.policy import PolicyOptions, PolicyUpdate, StreamingPolicy, WindowDecoder
from app.dictation.stats import SessionStats
from app.dictation.text import join_words
from app.dictation.timeline import RingProducer, SessionRecorder, Timeline
from app.dictation.worker_state import LIVE, WorkerState, WorkerStateCell
from app.engine.types import SAMPLE_RATE, CancelledError, CancelToken

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DictationOptions:
    """`realtime`: the source delivers audio at wall-clock pace (microphone, `--realtime`);
    otherwise the worker consumes `policy.step_s` of audio per step, as if decoding were instant.
    `record_path`: also write the session audio to this WAV file (None = don't); `commands`:
    the decoder scores every short utterance whose text is not exactly a command's sound against
    the command phrases (`DictationEvent.command`; None = don't)."""

    policy: PolicyOptions = field(default_factory=PolicyOptions)
    vad: VadOptions = field(default_factory=VadOptions)
    realtime: bool = True
    record_path: Path | None = None
    commands: CommandOptions | None = None


class DictationWorker:
    """Runs a dictation session on its own thread; `stop()` flushes, `cancel()` abandons."""

    def __init__(
        self,
        source: RingProducer,
        decoder: WindowDecoder,
        sink: EventSink,
        options: DictationOptions = DictationOptions(),
        vad_model: SileroVadModel | None = None,
    ) -> None:
        self.source = source
        self.sink = sink
        self.options = options
        self._state = WorkerStateCell()  # moved by this thread and the caller's: compare-and-set
        self.cancel_token = CancelToken()
        recorder = SessionRecorder(options.record_path) if options.record_path else None
        self.timeline = Timeline(source, options.realtime, recorder=recorder)
        self.vad = SpeechSegmenter(vad_model or SileroVadModel(), options.vad)
        self.policy = StreamingPolicy(
            decoder, self.timeline.get, self.vad.speech_ratio, options.policy, self.cancel_token, options.realtime
        )
        self.commands = CommandListener.for_decoder(decoder, options.commands)
        self.stats = SessionStats()
        self._events = EventPublisher(sink, self.timeline, self.stats, options.policy)
        self.summary: SessionSummary | None = None
        self.failure: Exception | None = None  # what stopped the loop (then audio is left untranscribed)
        self._in_utterance = False
        self._speech_start = 0  # raw (unpadded) start of the current utterance
        self._utterance_from = 0  # padded start of the current utterance (16 kHz samples)
        self._held: VadEvent | None = None  # the END of an utterance held open mid-sentence
        self._held_at = 0  # VAD position (16 kHz samples) when that END came
        self._last_decode_s = 0.0
        self._thread = threading.Thread(target=self._run, name="earshot-dictation", daemon=True)

    # ------------------------------------------------------------------ control
    def start(self) -> None:
        """Start the source and the worker thread."""
        self.source.start()  # raises AudioDeviceError before anything runs
        self._state.move(WorkerState.RUNNING, leaving=(WorkerState.CREATED,))
        self._thread.start()

    def stop(self) -> None:
        """Stop capturing; the worker commits the remaining speech, then emits the summary."""
        self._state.move(WorkerState.STOPPING, leaving=(WorkerState.RUNNING,))
        self.source.stop()

    def cancel(self) -> None:
        """Abandon at once: no final decode. Committed text was already delivered.
        A session that has FINISHED already stays so."""
        self._state.move(WorkerState.CANCELLED, leaving=LIVE)
        self.cancel_token.cancel()
        self.source.stop()

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the worker to finish; True if it did."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    @property
    def state(self) -> WorkerState:
        return self._state.state

    @property
    def transcript(self) -> str:
        """All committed text so far."""
        return join_words(self.policy.committed)

    # ------------------------------------------------------------------ thread
    def _run(self) -> None:
        try:
            self._loop()
        except CancelledError:
            pass
        except Exception as exc:  # report, never die silently: the text so far stays committed
            self.failure = exc
            log.exception("dictation stopped")
            self._events.publish_error(f"Dictation stopped: {exc}")
        finally:
            if self.timeline.recorder is not None:
                self.timeline.recorder.close()
            self._state.move(WorkerState.FINISHED, leaving=LIVE)  # unless cancelled, even just now
            self._emit_summary()

    def _loop(self) -> None:
        fast_chunk = None
        if not self.options.realtime:
            fast_chunk = int(self.options.policy.step_s * self.source.ring.sample_rate)
        while self.state is not WorkerState.CANCELLED:
            new = self.timeline.pull(fast_chunk)
            for event in self.vad.feed(new):
                self._on_vad(event)
            if self.timeline.finished:
                self._check_source()  # a source that ended by itself says why
                for event in self.vad.flush():
                    self._on_vad(event)
                self._finish_held()
                self._flush_mark()
                return
            self._finish_held(expired_only=True)
            if self._in_utterance:
                self._maybe_decode()
            self.timeline.release(self._keep_from())
            if new.size == 0:
                self._check_source()
                time.sleep(0.01)

    def _check_source(self) -> None:
        try:
            self.source.check_alive()
        except AudioDeviceError as exc:  # keep going: the ring is closed, we drain and commit
            if self._state.move(WorkerState.STOPPING, leaving=(WorkerState.RUNNING,)):
                self._events.publish_error(str(exc))

    def _keep_from(self) -> int:
        """Free timeline audio the policy no longer needs, keeping the VAD's look-back padding."""
        if self._in_utterance or self._held is not None:
            return self.policy.window_start
        lookback = self.vad.processed - int(self.options.vad.speech_pad_s * SAMPLE_RATE) - 1024
        return max(0, min(self.policy.keep_from(self.vad.processed), lookback))

    def _on_vad(self, event: VadEvent) -> None:
        if event.kind is VadEventKind.START and not self._in_utterance:
            self._in_utterance = True
            if self._held is not None:  # speech resumed mid-sentence: the same utterance goes on
                self._held = None
                return
            self._events.begin_utterance()
            self._speech_start = event.raw_index
            self._utterance_from = event.index
            self.policy.begin(event.index)
            self.stats.utterance_started(self.timeline.capture_time(event.raw_index))
        elif event.kind is VadEventKind.END and self._in_utterance:
            self._in_utterance = False
            long_enough = event.raw_index - self._speech_start >= (self.options.vad.min_speech_s * SAMPLE_RATE)
            if long_enough and self._ends_mid_sentence(event.index):
                self._held, self._held_at = event, self.vad.processed
                return
            self._finish(event, skip=not long_enough)

    def _ends_mid_sentence(self, end: int) -> bool:
        """Decode up to the end of speech (unless the speculative final decode already did) and
        say whether its text stops mid-sentence, so the utterance should be held open."""
        policy = self.options.policy
        short = end - self._speech_start <= policy.hold_max_speech_s * SAMPLE_RATE
        if policy.hold_unfinished_s <= 0 or not short or self.state is not WorkerState.RUNNING:
            return False
        if self.policy.last_decode_end != end:
            self._decode(end, final=True)
        return self.policy.ends_open()

    def _finish_held(self, expired_only: bool = False) -> None:
        """Commit a held utterance once its hold has run out (or at once when the audio ends)."""
        held = self._held
        if held is None:
            return
        hold = int(self.options.policy.hold_unfinished_s * SAMPLE_RATE)
        if expired_only and self.state is WorkerState.RUNNING and self.vad.processed - self._held_at < hold:
            return
        self._held = None
        self._finish(held, skip=False)

    def _finish(self, end: VadEvent, skip: bool) -> None:
        update = self.policy.finish(end.index, skip=skip)
        self._account(update)
        command = None
        if self.commands is not None:
            start = max(self._utterance_from, self.policy.window_start)
            earlier = self._events.utterance_text
            text = earlier + join_words(update.committed)
            seconds = (end.index - start) / SAMPLE_RATE
            command = self.commands.heard(text, lambda: self.timeline.get(start, end.index), seconds, earlier)
        self._events.publish(update, final=True, speech_end=end.raw_index, command=command)

    def _flush_mark(self) -> None:
        """The session is over: the punctuation mark held after the last words is final now."""
        self._events.publish_mark(self.policy.flush())

    def _maybe_decode(self) -> None:
        available = self.vad.processed
        pending = self.vad.pending_end
        if pending is not None and available >= pending:
            if self.policy.last_decode_end != pending:  # speculative final decode
                self._decode(pending, final=True)
            return
        step = self.options.policy.step_s
        if self.options.realtime:  # adaptive: never decode more often than we can afford
            step = max(step, self._last_decode_s / self.options.policy.compute_share)
        min_speech = self.options.vad.min_speech_s * SAMPLE_RATE
        enough_speech = available - self._speech_start >= min_speech
        due = step * SAMPLE_RATE - FRAME  # the VAD advances in whole frames
        if enough_speech and available - self.policy.last_decode_end >= due:
            self._decode(available)

    def _decode(self, end: int, final: bool = False) -> None:
        update = self.policy.decode(end, final)
        self._account(update)
        self._events.publish(update, final=False, speech_end=end)

    def _account(self, update: PolicyUpdate) -> None:
        if update.decode_s > 0:
            self._last_decode_s = update.decode_s
            self.stats.decode_s += update.decode_s
            self.stats.decodes += 1

    def _emit_summary(self) -> None:
        """The session is over: keep its summary in `summary`, then send it."""
        audio_s = self.timeline.written / SAMPLE_RATE
        self.summary = self.stats.summary(audio_s, self.timeline.overflows, self.transcript)
        self._events.publish_summary(self.summary, audio_s)

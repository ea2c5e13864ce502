"""The live worker's events: policy updates -> `DictationEvent`s for its sink.

Event times are seconds of session audio at 16 kHz; latencies are milliseconds from the capture
of the audio an event ends at (`Timeline.capture_time`) to the event's emission.
"""

from __future__ import annotations

import time

from app.dictation.events import DictationEvent, EventSink, EventType, HeardPhrase, SessionSummary, TimedWord
from app.dictation.policy import PolicyOptions, PolicyUpdate
from app.dictation.stats import SessionStats
from app.dictation.text import HypothesisWord, join_words
from app.dictation.timeline import Timeline
from app.engine.types import SAMPLE_RATE


class EventPublisher:
    """Numbers the utterances and turns each policy update into COMMIT, TENTATIVE and FINAL
    events (a TENTATIVE one only when its text changed), and sends ERROR and SUMMARY events.
    Used by the worker thread only; `stats` is the session's, shared with the worker."""

    def __init__(self, sink: EventSink, timeline: Timeline, stats: SessionStats, policy: PolicyOptions) -> None:
        self.sink = sink
        self.timeline = timeline
        self.stats = stats
        self.policy = policy
        self.utterance = 0  # the current utterance's number (1-based; 0 before the first)
        self.utterance_text = ""  # its committed text so far (empty: none yet)
        self._tentative = ""  # the tentative text last sent

    def begin_utterance(self) -> None:
        """A new utterance starts: the next number, no committed text yet."""
        self.utterance += 1
        self.utterance_text = ""

    def publish(self, update: PolicyUpdate, final: bool, speech_end: int, command: HeardPhrase | None = None) -> None:
        """Send what a decode changed. `speech_end`: where its audio ends (16 kHz samples);
        `final`: the utterance ends there, so its FINAL event goes out (with `command`, if heard)."""
        words = update.committed
        self.utterance_text += join_words(words)
        if final:
            start = words[0].start if words else speech_end / SAMPLE_RATE
            latency = self._emit(
                EventType.FINAL,
                join_words(words),
                start,
                speech_end / SAMPLE_RATE,
                update.decode_s,
                self._timed(words),
                command,
            )
            self.stats.utterance_finished(latency, bool(self.utterance_text))
            self._tentative = ""
            return
        if words:
            self._emit(
                EventType.COMMIT, join_words(words), words[0].start, words[-1].end, update.decode_s, self._timed(words)
            )
        tentative = join_words(update.tentative)
        if tentative != self._tentative:
            self._tentative = tentative
            start = update.tentative[0].start if update.tentative else speech_end / SAMPLE_RATE
            end = update.tentative[-1].end if update.tentative else start
            self._emit(EventType.TENTATIVE, tentative, start, end, update.decode_s)
        if words or tentative:
            self.stats.text_shown(time.monotonic())

    def publish_mark(self, update: PolicyUpdate) -> None:
        """Send the punctuation mark the policy released at the end of the session, if any."""
        if update.committed:
            self._emit(
                EventType.COMMIT,
                join_words(update.committed),
                update.committed[0].start,
                update.committed[0].end,
                0.0,
                self._timed(update.committed),
            )

    def publish_error(self, message: str) -> None:
        """Send an ERROR event (no times, no latency)."""
        self._emit(EventType.ERROR, message, 0.0, 0.0, 0.0)

    def publish_summary(self, summary: SessionSummary, audio_s: float) -> None:
        """Send the closing SUMMARY event of a session of `audio_s` seconds."""
        self.sink(DictationEvent(EventType.SUMMARY, "", self.utterance, 0.0, audio_s, 0.0, summary=summary))

    def _timed(self, words: list[HypothesisWord]) -> tuple[TimedWord, ...] | None:
        """The committed words with their times, where the session times words (else None):
        AlignAtt, the default commit rule, times every window's words whatever `decode` says."""
        if not self.policy.effective_decode().word_timestamps:
            return None
        return tuple(TimedWord(w.text, w.start, w.end) for w in words)

    def _emit(
        self,
        kind: EventType,
        text: str,
        start_s: float,
        end_s: float,
        decode_s: float,
        words: tuple[TimedWord, ...] | None = None,
        command: HeardPhrase | None = None,
    ) -> float:
        """Send one event; returns its latency in milliseconds (0 for an ERROR)."""
        now = time.monotonic()
        latency_ms = 1000.0 * (now - self.timeline.capture_time(end_s * SAMPLE_RATE))
        if kind is EventType.ERROR:
            latency_ms = 0.0
        self.sink(
            DictationEvent(
                kind, text, self.utterance, start_s, end_s, latency_ms, 1000.0 * decode_s, words=words, command=command
            )
        )
        return latency_ms

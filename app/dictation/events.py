"""Typed updates a dictation session emits, and the summary at its end."""

from __future__ import annotations

import enum
import queue
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any


class EventType(enum.Enum):
    """What the dictation worker reports to its sink (see each value's comment)."""

    TENTATIVE = "tentative"  # may still change; replaces the previous tentative text
    COMMIT = "commit"  # a delta of committed text: never changes, never repeats
    FINAL = "final"  # the utterance ended; the rest of its text, committed
    ERROR = "error"  # something went wrong (device lost...); what was committed is kept
    SUMMARY = "summary"  # session statistics, the last event


@dataclass(frozen=True)
class SessionSummary:
    """Statistics of a finished session (times in ms; `compute_ratio` = decode s / audio s)."""

    commit_latency_ms_p50: float | None
    commit_latency_ms_p95: float | None
    first_tentative_ms_p50: float | None
    compute_ratio: float
    overflows: int
    audio_s: float
    decodes: int
    utterances: int
    transcript: str

    def to_json_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("transcript")
        return {"type": EventType.SUMMARY.value, **data}


@dataclass(frozen=True)
class TimedWord:
    """A committed word: `word` as in the committed text (its leading space, its punctuation;
    the joined words of an event are its text), `start`/`end` in seconds of session audio."""

    word: str
    start: float
    end: float

    def to_json_dict(self) -> dict[str, Any]:
        return {"word": self.word, "start": round(self.start, 3), "end": round(self.end, 3)}


@dataclass(frozen=True)
class HeardPhrase:
    """The command phrase the decoder scores best against a short utterance's audio, and its
    `score`: the mean log-probability per token of the phrase given the audio (0 is best; for a
    phrase that takes words, of the phrase's tokens at the start of the utterance)."""

    words: str
    score: float
    argument: str = ""
    """For a phrase that takes words ("cap"): what the decoder writes after it, made to start with
    it; for "literal": the command phrase heard after it."""
    text_phrase_score: float | None = None
    """Where the utterance's text sounds like another scored phrase: the decoder's score of that
    phrase (the decoder overrules the text only well above it)."""


@dataclass(frozen=True)
class DictationEvent:
    """One update.

    `text` is the committed delta for COMMIT/FINAL (with Whisper's leading space), the whole
    current tentative tail for TENTATIVE, and the message for ERROR. `audio_start_s`/`audio_end_s`
    locate the text in session audio (seconds). `latency_ms` is wall time from the capture of the
    audio at `audio_end_s` to the emission of this event; None where no captured audio stands
    behind it (the text the controller's post-processor held back until the session's end).
    `decode_ms`: the decode behind it.
    """

    type: EventType
    text: str = ""
    utterance: int = 0
    audio_start_s: float = 0.0
    audio_end_s: float = 0.0
    latency_ms: float | None = None
    decode_ms: float = 0.0
    summary: SessionSummary | None = None  # set on the SUMMARY event only
    words: tuple[TimedWord, ...] | None = None  # COMMIT/FINAL, when the session times words
    command: HeardPhrase | None = None  # FINAL of a short utterance, where the decoder scored the commands

    def to_json_dict(self) -> dict[str, Any]:
        """The `earshot dictate --json` line for this event."""
        data: dict[str, Any] = {
            "type": self.type.value,
            "text": self.text,
            "utterance": self.utterance,
            "audio_start_s": round(self.audio_start_s, 3),
            "audio_end_s": round(self.audio_end_s, 3),
            "latency_ms": None if self.latency_ms is None else round(self.latency_ms, 1),
        }
        if self.words is not None:
            data["words"] = [w.to_json_dict() for w in self.words]
        return data


EventSink = Callable[[DictationEvent], None]


class QueueSink:
    """An `EventSink` that puts events on a thread-safe queue for another thread to read."""

    def __init__(self) -> None:
        self.queue: queue.Queue[DictationEvent] = queue.Queue()

    def __call__(self, event: DictationEvent) -> None:
        self.queue.put(event)

"""Per-session latency and compute bookkeeping, reduced to a `SessionSummary` at the end."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from app.dictation.events import SessionSummary


def percentile(values: list[float], q: float) -> float | None:
    """The q-th percentile (0..100) of `values`, or None when there are none."""
    return float(np.percentile(values, q)) if values else None


@dataclass
class SessionStats:
    """Collects timings in milliseconds as events are emitted."""

    commit_latencies_ms: list[float] = field(default_factory=list)
    first_tentative_ms: list[float] = field(default_factory=list)
    decode_s: float = 0.0
    decodes: int = 0
    utterances: int = 0
    _awaiting_first: bool = False
    _speech_start_time: float = 0.0

    def utterance_started(self, capture_time: float) -> None:
        """Speech began; `capture_time` is when its first sample was captured (monotonic s)."""
        self.utterances += 1
        self._awaiting_first = True
        self._speech_start_time = capture_time

    def text_shown(self, now: float) -> None:
        """Some text (tentative or committed) of the current utterance reached the user."""
        if self._awaiting_first:
            self._awaiting_first = False
            self.first_tentative_ms.append(1000.0 * (now - self._speech_start_time))

    def utterance_finished(self, latency_ms: float, had_text: bool) -> None:
        """All words of the utterance are committed, `latency_ms` after its speech ended."""
        self._awaiting_first = False
        if had_text:
            self.commit_latencies_ms.append(latency_ms)

    def summary(self, audio_s: float, overflows: int, transcript: str) -> SessionSummary:
        return SessionSummary(
            commit_latency_ms_p50=percentile(self.commit_latencies_ms, 50),
            commit_latency_ms_p95=percentile(self.commit_latencies_ms, 95),
            first_tentative_ms_p50=percentile(self.first_tentative_ms, 50),
            compute_ratio=self.decode_s / audio_s if audio_s > 0 else 0.0,
            overflows=overflows,
            audio_s=audio_s,
            decodes=self.decodes,
            utterances=self.utterances,
            transcript=transcript,
        )

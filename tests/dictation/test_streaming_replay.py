"""The streaming policy through the real worker, the real Silero VAD and the real tiny.en.

Clips are replayed in fast mode: the worker consumes `step_s` of audio per step, as if decoding
took no time, so results do not depend on the speed of the (shared) machine.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from conftest import offline_text, replay
from earshot_testing import DATA_DIR, SHARED_SPEECH, espeak_clips, needs_shared, read_wav, shared_manifest

from app.dictation.events import EventType
from app.engine.wer import word_error_rate

RATE = 16000


def assert_events_well_formed(events) -> None:  # type: ignore[no-untyped-def]
    assert events[-1].type is EventType.SUMMARY and events[-1].summary is not None
    assert not [e for e in events if e.type is EventType.ERROR]
    commits = [e for e in events if e.type in (EventType.COMMIT, EventType.FINAL)]
    # committed text is never re-emitted: commits move forward in time, one FINAL per utterance
    for a, b in itertools.pairwise(commits):
        assert b.audio_start_s >= a.audio_start_s - 1e-6
    finals = [e.utterance for e in events if e.type is EventType.FINAL]
    assert finals == sorted(set(finals))


def stream_vs_offline(engine, audios: list[np.ndarray], refs: list[str]) -> tuple[float, float, list[str]]:  # type: ignore[no-untyped-def]
    streamed, offline = [], []
    for audio in audios:
        result = replay(engine, audio)
        assert_events_well_formed(result.events)
        assert result.committed == result.worker.transcript
        streamed.append(result.committed)
        offline.append(offline_text(engine, audio))
    return word_error_rate(refs, streamed), word_error_rate(refs, offline), streamed


def test_espeak_clips_stream_as_accurately_as_offline(engine) -> None:  # type: ignore[no-untyped-def]
    clips = espeak_clips()
    audios = [read_wav(DATA_DIR / c["file"]) for c in clips]
    refs = [c["text"] for c in clips]
    stream_wer, offline_wer, streamed = stream_vs_offline(engine, audios, refs)
    assert stream_wer <= offline_wer + 1.0, (stream_wer, offline_wer, streamed)


@needs_shared
@pytest.mark.shared
def test_shared_english_clips_stream_as_accurately_as_offline(engine) -> None:  # type: ignore[no-untyped-def]
    rows = [r for r in shared_manifest() if r["language"] == "en"]
    audios = [read_wav(SHARED_SPEECH / r["file"]) for r in rows]
    refs = [r["reference_text"] for r in rows]
    stream_wer, offline_wer, streamed = stream_vs_offline(engine, audios, refs)
    assert stream_wer <= offline_wer + 1.0, (stream_wer, offline_wer, streamed)


def test_noise_commits_nothing(engine) -> None:  # type: ignore[no-untyped-def]
    noise = read_wav(DATA_DIR / "espeak_noise.wav")
    result = replay(engine, np.concatenate([noise, np.zeros(RATE, dtype=np.float32), noise]))
    assert result.committed == ""
    assert_events_well_formed(result.events)


@needs_shared
@pytest.mark.shared
def test_shared_non_speech_clips_commit_nothing(engine) -> None:  # type: ignore[no-untyped-def]
    for row in shared_manifest():
        if row["reference_status"] != "empty_expected":
            continue
        result = replay(engine, read_wav(SHARED_SPEECH / row["file"]))
        assert result.committed == "", (row["clip_id"], result.committed)
        assert not result.of_type(EventType.COMMIT)


def _speech_only(audio: np.ndarray) -> np.ndarray:
    """The clip without its lead-in and tail silence (keeps 50 ms each side)."""
    loud = np.nonzero(np.abs(audio) > 0.01)[0]
    return audio[max(0, loud[0] - 800) : loud[-1] + 800]


def _alignment_counts(ref: list[str], hyp: list[str]) -> tuple[int, int, int]:
    """(substitutions, deletions, insertions) of a minimum edit alignment."""
    rows = [[(j, 0, 0, j) for j in range(len(hyp) + 1)]]  # (cost, S, D, I)
    for i in range(1, len(ref) + 1):
        row = [(i, 0, i, 0)]
        for j in range(1, len(hyp) + 1):
            diag, up, left = rows[i - 1][j - 1], rows[i - 1][j], row[j - 1]
            same = ref[i - 1] == hyp[j - 1]
            row.append(min(
                (diag[0] + (not same), diag[1] + (not same), diag[2], diag[3]),
                (up[0] + 1, up[1], up[2] + 1, up[3]),
                (left[0] + 1, left[1], left[2], left[3] + 1),
            ))
        rows.append(row)
    return rows[-1][-1][1:]


@pytest.mark.slow
def test_three_minutes_with_pauses_lose_and_double_no_words(engine) -> None:  # type: ignore[no-untyped-def]
    """Runs of six clips 0.15 s apart make utterances of 20-30 s, which force window trims;
    pauses of 1-4 s between runs split utterances. Expected: each clip transcribed on its own."""
    from app.dictation.policy import PolicyOptions
    from app.dictation.worker import DictationOptions
    from app.engine.wer import normalize

    clips = [_speech_only(read_wav(DATA_DIR / c["file"])) for c in espeak_clips()]
    heard = [offline_text(engine, clip) for clip in clips]
    rng = np.random.default_rng(7)
    parts: list[np.ndarray] = []
    expected: list[str] = []
    run = 0
    while sum(p.shape[0] for p in parts) < 180 * RATE:
        i = int(rng.integers(len(clips)))
        parts.append(clips[i])
        expected.append(heard[i])
        run = (run + 1) % 6
        gap = 0.15 if run else float(rng.choice([1.0, 2.5, 4.0]))
        parts.append(np.zeros(int(gap * RATE), dtype=np.float32))
    audio = np.concatenate(parts)
    # a 1.5 s step keeps this 3 minute test short; trimming and alignment are what it checks
    options = DictationOptions(policy=PolicyOptions(step_s=1.5, trim_after_s=8.0), realtime=False)
    result = replay(engine, audio, options)
    assert_events_well_formed(result.events)
    ref = normalize(" ".join(expected)).split()
    hyp = normalize(result.committed).split()
    subs, lost, doubled = _alignment_counts(ref, hyp)
    # words the model heard on the isolated clip but the stream lost / added twice
    assert lost <= 0.01 * len(ref) and doubled <= 0.01 * len(ref), (subs, lost, doubled, result.committed)
    policy = result.worker.policy
    assert policy.trims >= 2, policy.trims  # the trims really happened
    assert policy.longest_window_s <= 30.0

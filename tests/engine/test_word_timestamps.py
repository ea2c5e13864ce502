"""Word timestamps: real tiny.en on a committed espeak clip whose word edges are known exactly."""

from __future__ import annotations

import difflib
import itertools
import json

import numpy as np
import pytest
from earshot_testing import DATA_DIR, espeak_clips, read_wav

from app.engine.types import DecodeOptions, Segment
from app.engine.wer import normalize

WORD_CLIP = json.loads((DATA_DIR / "espeak_words.json").read_text(encoding="utf-8"))


def _transcribe(engine, name: str, **options) -> list[Segment]:  # type: ignore[no-untyped-def]
    segments, _ = engine.transcribe(read_wav(DATA_DIR / name), DecodeOptions(**options))
    return list(segments)


@pytest.fixture(scope="module")
def word_segments(engine):  # type: ignore[no-untyped-def]
    return _transcribe(engine, WORD_CLIP["file"], word_timestamps=True)


def _matched(segments: list[Segment]) -> list[tuple[float, float, dict[str, float]]]:
    """(our start, our end, truth) for each recognised word matched to a spoken one."""
    ours = [w for s in segments for w in s.words or []]
    truth = WORD_CLIP["words"]
    matcher = difflib.SequenceMatcher(None, [normalize(w.word) for w in ours], [normalize(t["word"]) for t in truth])
    return [(ours[b.a + k].start, ours[b.a + k].end, truth[b.b + k])
            for b in matcher.get_matching_blocks() for k in range(b.size)]


def test_word_times_match_the_known_word_edges(word_segments):
    matched = _matched(word_segments)
    assert len(matched) >= len(WORD_CLIP["words"]) - 1
    start_err = [abs(start - t["start"]) for start, _, t in matched]
    end_err = [abs(end - t["end"]) for _, end, t in matched]
    # tiny.en's attention: 48 ms and 81 ms mean here; single edges inside fluent speech up to 0.23 s.
    assert np.mean(start_err) <= 0.1 and np.mean(end_err) <= 0.1, (start_err, end_err)
    assert max(start_err + end_err) <= 0.3


def test_words_after_a_pause_start_when_the_speech_does(word_segments):
    """"to" and "and" follow pauses of 0.7 and 0.9 s: openai's alignment alone starts them in the silence."""
    by_word = {normalize(t["word"]): (start, t["start"]) for start, _, t in _matched(word_segments)}
    for word in ("to", "and"):
        ours, truth = by_word[word]
        assert abs(ours - truth) <= 0.1, (word, ours, truth)


def test_words_are_sorted_inside_their_segment_and_never_overlap(word_segments):
    previous_end = 0.0
    duration = len(read_wav(DATA_DIR / WORD_CLIP["file"])) / 16000
    for segment in word_segments:
        assert segment.words
        for word in segment.words:
            assert segment.start <= word.start <= word.end <= segment.end <= duration
            assert word.start >= previous_end
            assert 0.0 <= word.probability <= 1.0
            previous_end = word.end
        assert "".join(w.word for w in segment.words) == segment.text


@pytest.mark.parametrize("beam_size", [1, 5])
def test_text_and_tokens_with_words_equal_those_without(engine, beam_size):
    for clip in [*espeak_clips()[:3], {"file": WORD_CLIP["file"]}]:
        plain = _transcribe(engine, clip["file"], beam_size=beam_size)
        timed = _transcribe(engine, clip["file"], beam_size=beam_size, word_timestamps=True)
        assert [s.tokens for s in timed] == [s.tokens for s in plain]
        assert [s.text for s in timed] == [s.text for s in plain]
        assert all(s.words is None for s in plain)


def _long_audio() -> tuple[np.ndarray, float]:
    """Two clips and the word clip joined past 30 s, and where the word clip starts (s)."""
    gap = np.zeros(16000 * 12, dtype=np.float32)
    first, second = read_wav(DATA_DIR / "espeak_morning.wav"), read_wav(DATA_DIR / WORD_CLIP["file"])
    return np.concatenate([first, gap, first, gap, second]), (2 * len(first) + 2 * len(gap)) / 16000


@pytest.mark.parametrize("batch_size", [1, 2])
def test_long_audio_gets_words_in_every_window(engine, batch_size):
    """Windows after the first carry their offset (batched: each row of a batch its own)."""
    audio, offset = _long_audio()
    plain, _ = engine.transcribe(audio, DecodeOptions(batch_size=batch_size))
    segments, _ = engine.transcribe(audio, DecodeOptions(word_timestamps=True, batch_size=batch_size))
    segments = list(segments)
    assert [s.text for s in segments] == [s.text for s in plain]
    words = [w for s in segments for w in s.words or []]
    tomorrow = [w for w in words if normalize(w.word) == "tomorrow"]
    assert tomorrow and abs(tomorrow[-1].start - (offset + WORD_CLIP["words"][-1]["start"])) <= 0.3
    assert all(b.start >= a.end for a, b in itertools.pairwise(words))


def test_live_can_time_the_words_of_a_decoded_window(engine):
    """`WhisperEngine.word_timings`: the entry point live dictation can use on its windows."""
    audio = read_wav(DATA_DIR / WORD_CLIP["file"])
    window = engine.decode_window(audio, DecodeOptions(beam_size=1))
    words = engine.word_timings(audio, [t for s in window.segments for t in s.tokens])
    assert "".join(w.word for w in words).strip() == window.text
    assert abs(words[4].start - WORD_CLIP["words"][4]["start"]) <= 0.1  # "to", after a 0.7 s pause

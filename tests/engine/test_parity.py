"""Greedy decoding gives the same tokens as faster-whisper on the same CTranslate2 weights.

faster-whisper runs with compute_type float32, beam_size 1, without_timestamps, no
conditioning and no VAD; our loop is capped at 224 new tokens like CTranslate2.
"""

from __future__ import annotations

import pytest
from earshot_testing import DATA_DIR, SHARED_SPEECH, espeak_clips, needs_shared, read_wav, shared_english

from app.engine.types import DecodeOptions

GREEDY = DecodeOptions(beam_size=1, temperatures=(0.0,), without_timestamps=True, condition_on_previous_text=False)


@pytest.fixture(scope="module")
def peer(bundled_model_dir):
    from faster_whisper import WhisperModel

    return WhisperModel(str(bundled_model_dir), device="cpu", compute_type="float32", cpu_threads=2)


def _peer_tokens(peer, audio) -> list[int]:
    segments, _ = peer.transcribe(audio, beam_size=1, temperature=0.0, without_timestamps=True,
                                  condition_on_previous_text=False, vad_filter=False)
    return [t for s in segments for t in s.tokens]


def _our_tokens(engine, audio) -> list[int]:
    segments, _ = engine.transcribe(audio, GREEDY)
    return [t for s in segments for t in s.tokens]


@pytest.mark.parametrize("clip", espeak_clips(), ids=lambda c: c["file"])
def test_tokens_identical_on_espeak_clips(engine, peer, clip):
    audio = read_wav(DATA_DIR / clip["file"])
    assert _our_tokens(engine, audio) == _peer_tokens(peer, audio)


@needs_shared
def test_tokens_identical_on_at_least_9_of_10_shared_english_clips(engine, peer):
    rows = shared_english()
    assert len(rows) >= 10
    identical = []
    for row in rows:
        audio = read_wav(SHARED_SPEECH / f"{row['clip_id']}.wav")
        identical.append(_our_tokens(engine, audio) == _peer_tokens(peer, audio))
    assert sum(identical) >= 9, [r["clip_id"] for r, same in zip(rows, identical, strict=True) if not same]

"""Log-mel features equal faster-whisper's FeatureExtractor on real audio (max abs <= 1e-4)."""

from __future__ import annotations

import numpy as np
import pytest
from earshot_testing import DATA_DIR, SHARED_SPEECH, espeak_clips, read_wav, shared_english
from faster_whisper.feature_extractor import FeatureExtractor

from app.engine.runtime.features import log_mel, pad_or_trim

CLIPS = [DATA_DIR / c["file"] for c in espeak_clips()]
CLIPS += [SHARED_SPEECH / f"{r['clip_id']}.wav" for r in shared_english()]


@pytest.mark.parametrize("path", CLIPS, ids=lambda p: p.stem)
def test_log_mel_matches_faster_whisper(path):
    audio = read_wav(path)
    ours = log_mel(audio)
    theirs = FeatureExtractor()(audio)[:, :-1]  # faster-whisper keeps one trailing frame it never uses
    assert ours.shape == theirs.shape == (80, len(audio) // 160)
    assert np.abs(ours - theirs).max() <= 1e-4


def test_pad_or_trim_pads_with_zeros_to_30_s():
    mel = log_mel(read_wav(CLIPS[0]))
    window = pad_or_trim(mel)
    assert window.shape == (80, 3000)
    assert np.all(window[:, mel.shape[1]:] == 0.0)
    assert np.array_equal(window[:, : mel.shape[1]], mel)

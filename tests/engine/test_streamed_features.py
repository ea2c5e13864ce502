"""Log-mel computed block by block from a stream of chunks equals the whole file's."""

from __future__ import annotations

import numpy as np
from earshot_testing import DATA_DIR, espeak_clips, read_wav

from app.engine.runtime.features import log_mel, pad_or_trim
from app.engine.transcribe.audio_stream import StreamedFeatures
from app.engine.transcribe.speech_map import SpeechMap


def _chunks(audio: np.ndarray, size: int) -> list[np.ndarray]:
    return [audio[i : i + size] for i in range(0, len(audio), size)]


def test_a_clip_of_up_to_30_s_gives_the_whole_file_log_mel_bit_for_bit():
    for clip in espeak_clips():
        audio = read_wav(DATA_DIR / clip["file"])
        feats = StreamedFeatures(_chunks(audio, 7_777), 80, SpeechMap())
        n_frames = feats.frames_at(0)
        assert n_frames == len(audio) // 160
        assert np.array_equal(feats.window(0, n_frames), pad_or_trim(log_mel(audio)))


def test_a_long_recording_matches_the_whole_file_and_not_the_chunk_sizes():
    """Three minutes: each window within 1e-6 of the whole file's log-mel (the loudest frame
    comes first), and the same bits whatever the chunk size."""
    clips = [read_wav(DATA_DIR / c["file"]) for c in espeak_clips()]
    gap = np.zeros(8_000, dtype=np.float32)
    loud = 4.0 * clips[0]  # the loudest sentence first: the floor is the whole file's
    audio = np.concatenate([loud, gap] + [x for _ in range(6) for clip in clips for x in (clip, gap)])
    whole = log_mel(audio)
    windows = [(0, 3000), (2500, 3000), (9123, 3000), (whole.shape[1] - 1234, 1234)]
    results = []
    for size in (16_000, 480_000, 100_003):
        feats = StreamedFeatures(_chunks(audio, size), 80, SpeechMap())
        results.append([feats.window(start, n) for start, n in windows if feats.frames_at(start)])
    for got, (start, n) in zip(results[0], windows, strict=True):
        assert np.abs(got - pad_or_trim(whole[:, start : start + n])).max() <= 1e-6
    assert all(np.array_equal(a, b) for other in results[1:] for a, b in zip(results[0], other, strict=True))

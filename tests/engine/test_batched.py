"""`--batch-size`: several 30 s windows of one file decoded at once."""

from __future__ import annotations

import numpy as np
from earshot_testing import DATA_DIR, espeak_clips, read_wav

from app.engine.runtime.features import FRAMES_PER_SECOND, log_mel
from app.engine.transcribe.plan import plan_windows
from app.engine.types import DecodeOptions
from app.engine.wer import word_error_rate


def _recording(repeats: int) -> tuple[np.ndarray, str]:
    clips = espeak_clips()
    gap = np.zeros(12000, dtype=np.float32)
    parts = [part for _ in range(repeats) for c in clips for part in (read_wav(DATA_DIR / c["file"]), gap)]
    return np.concatenate(parts), " ".join(c["text"] for _ in range(repeats) for c in clips)


def test_batched_windows_read_like_the_same_windows_decoded_one_by_one(engine):
    audio, reference = _recording(2)  # about 65 s: three windows in one batch
    options = DecodeOptions(beam_size=1, batch_size=4)
    progress: list[tuple[float, float]] = []
    segments, info = engine.transcribe(audio, options, on_progress=lambda done, total: progress.append((done, total)))
    batched = list(segments)
    assert info.timings.n_windows == len(plan_windows([audio])) >= 3
    one_by_one = []
    alone = DecodeOptions(beam_size=1, condition_on_previous_text=False)
    for start, n_frames in plan_windows([audio]):
        one_by_one.append(engine.decode_window(audio[start * 160 : (start + n_frames) * 160], alone).text)
    # Each window reads as it does alone; speech Whisper left after a window's last segment is
    # then decoded again on its own (a sentence that the window alone drops here), never dropped.
    text = " ".join(s.text.strip() for s in batched)
    at = 0
    for window_text in (t.strip() for t in one_by_one):
        at = text.index(window_text, at) + len(window_text)
    assert word_error_rate([reference], [text]) < word_error_rate([reference], [" ".join(one_by_one)])
    assert word_error_rate([reference], [text]) <= 10.0
    starts = [s.start for s in batched]
    assert starts == sorted(starts) and batched[-1].end <= len(audio) / 16000 + 0.5
    assert progress and progress[-1][0] == progress[-1][1]


def test_windows_are_cut_in_pauses_not_in_words():
    audio, _ = _recording(3)
    mel = log_mel(audio, 80)
    windows = plan_windows([audio])
    assert all(n <= 3000 for _, n in windows) and sum(n for _, n in windows) == mel.shape[-1]
    samples_per_frame = 16000 // FRAMES_PER_SECOND
    for start, _ in windows[1:]:  # every cut lies in one of the 0.75 s gaps between sentences
        around = audio[(start - 10) * samples_per_frame : (start + 10) * samples_per_frame]
        assert np.abs(around).max() < 0.01

"""A > 5 minute recording: no word lost or doubled where 30 s windows join."""

from __future__ import annotations

import numpy as np
from earshot_testing import DATA_DIR, espeak_clips, read_wav

from app.engine.types import DecodeOptions
from app.engine.wer import normalize, word_error_rate


def test_five_minute_concatenation_keeps_every_sentence_once(engine):
    clips = espeak_clips()
    gap = np.zeros(int(0.7 * 16000), dtype=np.float32)
    pieces, reference = [], []
    rounds = 0
    while sum(len(p) for p in pieces) < 5.2 * 60 * 16000:
        for clip in clips:
            pieces += [read_wav(DATA_DIR / clip["file"]), gap]
            reference.append(clip["text"])
        rounds += 1
    audio = np.concatenate(pieces)
    assert len(audio) / 16000 > 300
    # The loop repeats the same sentences, so conditioning on previous text would let the model
    # predict text instead of hearing it: decode each window on its own audio.
    options = DecodeOptions(beam_size=1, temperatures=(0.0, 0.2, 0.4), condition_on_previous_text=False)
    segments, info = engine.transcribe(audio, options)
    segments = list(segments)
    hypothesis = " ".join(s.text for s in segments)
    assert info.timings.n_windows >= 10
    # Each sentence's first and last three words appear once per round: a join that lost
    # words would make one short, a join that decoded audio twice would make one long.
    norm_hyp = f" {normalize(hypothesis)} "
    counts = []
    for clip in clips:
        words = normalize(clip["text"]).split()
        for anchor in (words[:3], words[-3:]):
            counts.append(norm_hyp.count(f" {' '.join(anchor)} "))
    assert max(counts) <= rounds, counts
    assert sum(c == rounds for c in counts) >= 0.9 * len(counts), counts
    assert word_error_rate([" ".join(reference)], [hypothesis]) < 3.0
    ref_words, hyp_words = len(normalize(" ".join(reference)).split()), len(norm_hyp.split())
    assert abs(ref_words - hyp_words) <= 0.02 * ref_words
    starts = [s.start for s in segments]
    assert starts == sorted(starts) and segments[-1].end <= info.duration_s + 1.0


def _distinct_sentences() -> tuple[np.ndarray, str]:
    """The espeak sentences once each, 1 s apart (about 35 s: two windows)."""
    clips = espeak_clips()
    gap = np.zeros(16000, dtype=np.float32)
    audio = np.concatenate([part for c in clips for part in (read_wav(DATA_DIR / c["file"]), gap)])
    return audio, " ".join(c["text"] for c in clips)


def test_default_options_keep_every_sentence_of_a_two_window_recording(engine):
    """Default options (beam 5, previous text as prompt). Two mistakes lose whole sentences
    here: a prompt without the previous window's timestamps (the model then stops emitting them
    and the transcriber skips 30 s), and beam search counting endings ranked below the beam as
    finished hypotheses (windows end after two sentences)."""
    audio, reference = _distinct_sentences()
    segments, _ = engine.transcribe(audio, DecodeOptions())
    segments = list(segments)
    assert word_error_rate([reference], [" ".join(s.text for s in segments)]) <= 5.0, [s.text for s in segments]
    assert max(s.end - s.start for s in segments) < 15.0  # one segment per sentence, not per window

"""Beams and best-of samples share one copy of their window's cross-attention K/V."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
from earshot_testing import DATA_DIR, espeak_clips, read_wav

from app.engine.decoding.window_decoder import mel_window
from app.engine.runtime.features import log_mel
from app.engine.runtime.whisper_runtime import CrossAttention


def test_rows_sharing_one_audio_get_the_logits_of_a_repeated_audio(engine):
    runtime = engine.runtime
    audio = read_wav(DATA_DIR / espeak_clips()[0]["file"])
    cross = runtime.encode(mel_window(log_mel(audio, runtime.facts.dims.n_mels), 0, 1000))
    repeated = CrossAttention({name: ort.OrtValue.ortvalue_from_numpy(np.repeat(v.numpy(), 3, axis=0))
                               for name, v in cross.values.items()}, 3)
    tok = runtime.tokenizer
    prompt = np.array([[tok.sot, tok.no_timestamps]] * 3, dtype=np.int64)
    shared_logits, shared_cache = runtime.decode(prompt, runtime.new_cache(3), cross)
    copied_logits, copied_cache = runtime.decode(prompt, runtime.new_cache(3), repeated)
    np.testing.assert_allclose(shared_logits, copied_logits, atol=1e-4)
    # Three different next tokens, and a reordered cache, as beam search feeds them.
    step = np.array([[440], [1119], [383]], dtype=np.int64)
    order = np.array([2, 0, 1], dtype=np.int64)
    shared_logits, _ = runtime.decode(step, shared_cache, cross, order)
    copied_logits, _ = runtime.decode(step, copied_cache, repeated, order)
    np.testing.assert_allclose(shared_logits, copied_logits, atol=1e-4)
    # The rows stay independent: different tokens give different next-token scores.
    assert not np.allclose(shared_logits[0], shared_logits[1], atol=1e-2)

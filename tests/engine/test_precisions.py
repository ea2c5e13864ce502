"""Every precision decodes a whole clip, with KV caches of the graph's own dtype."""

from __future__ import annotations

import numpy as np
import pytest
from earshot_testing import DATA_DIR, espeak_clips, read_wav

from app.engine.loader import load_engine
from app.engine.types import DecodeOptions, Precision
from app.engine.wer import word_error_rate

CACHE_DTYPE = {Precision.FP32: np.float32, Precision.FP16: np.float16, Precision.INT8: np.float32,
               Precision.INT4: np.float32}


@pytest.mark.parametrize("precision", [Precision.FP32, Precision.FP16, Precision.INT8, Precision.INT4],
                         ids=lambda p: p.value)
def test_precision_decodes_clips_with_matching_cache_dtype(precision):
    engine = load_engine(precision=precision)
    assert engine.precision is precision
    assert engine.runtime.cache_dtype is CACHE_DTYPE[precision]
    declared = {i.name: i.type for i in engine.runtime.decoder.get_inputs()}
    expected = "tensor(float16)" if precision is Precision.FP16 else "tensor(float)"
    assert declared["past_k_0"] == declared["cross_k_0"] == expected
    outputs = {o.name: o.type for o in engine.runtime.encoder.get_outputs()}
    assert outputs["cross_k_0"] == expected
    clips = espeak_clips()[:3]
    hyps = []
    for clip in clips:
        segments, _ = engine.transcribe(read_wav(DATA_DIR / clip["file"]), DecodeOptions(beam_size=1))
        hyps.append(" ".join(s.text for s in segments))
    # 4-bit weights cost accuracy on a model as small as tiny.en; the others stay close to fp32.
    limit = 25.0 if precision is Precision.INT4 else 10.0
    assert word_error_rate([c["text"] for c in clips], hyps) <= limit, hyps


def test_auto_resolves_to_a_concrete_precision():
    engine = load_engine(precision=Precision.AUTO)
    assert engine.precision is not Precision.AUTO

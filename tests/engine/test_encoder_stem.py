"""The int8 graphs build the encoder's conv stem as MatMuls over explicit windows (so the row
quantizer can rewrite them); in fp32 that stem must compute what the two Conv1d layers compute."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
from earshot_testing import DATA_DIR, espeak_clips, read_wav

from app.engine.convert.encoder_graph import build_encoder
from app.engine.convert.readers import read_weights
from app.engine.decoding.window_decoder import mel_window
from app.engine.models.store import bundled_model_dir
from app.engine.runtime.features import log_mel


def _run(model, mel: np.ndarray) -> list[np.ndarray]:
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, {"mel": mel})


def test_matmul_stem_gives_the_conv_stems_cross_attention() -> None:
    weights = read_weights(bundled_model_dir())
    # Real speech, and a batch of two, so a mistake in the windows' batch or time axes shows.
    audio = read_wav(DATA_DIR / espeak_clips()[0]["file"])
    speech = mel_window(log_mel(audio, weights.dims.n_mels), 0, 3000)
    mel = np.concatenate([speech, speech[:, :, ::-1]]).astype(np.float32)
    conv = _run(build_encoder(weights), mel)
    matmul = _run(build_encoder(weights, stem_as_matmuls=True), mel)
    for a, b in zip(conv, matmul, strict=True):
        np.testing.assert_allclose(b, a, rtol=0, atol=1e-3 * float(np.abs(a).max()))

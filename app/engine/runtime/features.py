"""Log-mel features exactly as Whisper (and faster-whisper's FeatureExtractor) compute them.

STFT: n_fft 400, hop 160, periodic Hann window, centred with reflect padding; the last STFT
frame is dropped, so `n_samples` samples give `n_samples // 160` frames (100 per second).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from app.engine.types import SAMPLE_RATE

N_FFT = 400
HOP_LENGTH = 160
FRAMES_PER_SECOND = SAMPLE_RATE // HOP_LENGTH  # 100
N_FRAMES_WINDOW = 3000  # one 30 s encoder window


@lru_cache(maxsize=4)
def mel_filters(n_mels: int) -> NDArray[np.float32]:
    """Slaney-style mel filterbank [n_mels, n_fft // 2 + 1] float32 (librosa's `mel`)."""
    fft_freqs = np.fft.rfftfreq(n=N_FFT, d=1.0 / SAMPLE_RATE)
    mels = np.linspace(0.0, 45.245640471924965, n_mels + 2)
    f_sp = 200.0 / 3
    freqs = f_sp * mels
    min_log_hz, min_log_mel, logstep = 1000.0, 1000.0 / f_sp, np.log(6.4) / 27.0
    log_region = mels >= min_log_mel
    freqs[log_region] = min_log_hz * np.exp(logstep * (mels[log_region] - min_log_mel))
    fdiff = np.diff(freqs)
    ramps = freqs.reshape(-1, 1) - fft_freqs.reshape(1, -1)
    lower = -ramps[:-2] / fdiff[:-1, None]
    upper = ramps[2:] / fdiff[1:, None]
    weights = np.maximum(0.0, np.minimum(lower, upper))
    weights *= (2.0 / (freqs[2 : n_mels + 2] - freqs[:n_mels]))[:, None]
    return weights.astype(np.float32)


@lru_cache(maxsize=1)
def hann_window() -> NDArray[np.float32]:
    return np.hanning(N_FFT + 1)[:-1].astype(np.float32)


def _power_spectrum(audio: NDArray[np.float32]) -> NDArray[np.float32]:
    """|STFT|^2 [n_fft // 2 + 1, n_frames] float32, last frame dropped."""
    padded = np.pad(audio, N_FFT // 2, mode="reflect")
    n_frames = 1 + (len(padded) - N_FFT) // HOP_LENGTH
    frames = np.lib.stride_tricks.as_strided(
        padded, (n_frames, N_FFT), (padded.strides[0] * HOP_LENGTH, padded.strides[0])
    )
    spectrum = np.fft.rfft(frames * hann_window(), axis=-1).astype(np.complex64)
    power: NDArray[np.float32] = (np.abs(spectrum[:-1]) ** 2).T.astype(np.float32)
    return power


def log_mel(audio: NDArray[np.float32], n_mels: int = 80) -> NDArray[np.float32]:
    """Audio [n_samples] float32 16 kHz -> log-mel [n_mels, n_samples // 160] float32.

    The dynamic-range clamp (max - 8) uses the maximum over the whole input, so callers that
    want results equal to another implementation must pass the same span of audio.
    """
    audio = np.asarray(audio, dtype=np.float32)
    n_frames = len(audio) // HOP_LENGTH
    # One hop of trailing zeros, as faster-whisper does: the extra frame takes part in the
    # max clamp, then is dropped. Very short inputs are padded so reflect padding works.
    audio = np.pad(audio, (0, max(HOP_LENGTH, N_FFT - len(audio))))
    mel = mel_filters(n_mels) @ _power_spectrum(audio)
    log_spec = np.log10(np.maximum(mel, 1e-10))
    log_spec = np.maximum(log_spec, log_spec.max() - 8.0)
    result: NDArray[np.float32] = ((log_spec[:, :n_frames] + 4.0) / 4.0).astype(np.float32)
    return result


def pad_or_trim(mel: NDArray[np.float32], n_frames: int = N_FRAMES_WINDOW) -> NDArray[np.float32]:
    """[n_mels, frames] -> [n_mels, n_frames], zero-padded on the right (as faster-whisper)."""
    if mel.shape[-1] >= n_frames:
        return np.ascontiguousarray(mel[:, :n_frames])
    return np.pad(mel, ((0, 0), (0, n_frames - mel.shape[-1])))

"""Helpers for the file-decoder tests: real media files encoded at test time.

Every fixture file is written with PyAV's own encoders and muxers (the FFmpeg bundled in the
`av` wheel: libmp3lame, flac, libopus in ogg, native aac in m4a/mp4, pcm, mpeg4 video), from
one committed espeak-ng clip. Debian's ffmpeg is not needed. The reference audio is read with
the standard library's `wave` module and resampled with soxr, so nothing in the comparison
goes through the decoder under test.
"""

from __future__ import annotations

import wave
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import soxr

DATA_DIR = Path(__file__).resolve().parents[1] / "data"
SOURCE_CLIP = DATA_DIR / "espeak_morning.wav"
RATE = 16_000


@dataclass(frozen=True)
class Encoding:
    """How to encode the reference clip. `gains` scale the mono clip into each channel."""

    suffix: str
    codec: str
    rate: int
    gains: tuple[float, ...] = (1.0,)
    container: str | None = None
    bit_rate: int | None = None

    @property
    def layout(self) -> str:
        return {1: "mono", 2: "stereo", 6: "5.1"}[len(self.gains)]


ENCODINGS: dict[str, Encoding] = {
    "mp3": Encoding(".mp3", "libmp3lame", 44_100, bit_rate=128_000),
    "flac": Encoding(".flac", "flac", 16_000),
    "opus_ogg": Encoding(".ogg", "libopus", 48_000, container="ogg", bit_rate=48_000),
    "aac_m4a": Encoding(".m4a", "aac", 44_100, (1.0, 1.0), container="ipod", bit_rate=128_000),
    "wav_8k": Encoding(".wav", "pcm_s16le", 8_000),
    "wav_44k": Encoding(".wav", "pcm_s16le", 44_100),
    "wav_48k": Encoding(".wav", "pcm_s16le", 48_000),
    # Left at full level, right at half: a mean downmix gives 0.75 of the clip.
    "wav_stereo": Encoding(".wav", "pcm_s16le", 48_000, (1.0, 0.5)),
    # 5.1 with the speech on the front left, right and centre, silence elsewhere.
    "flac_5_1": Encoding(".flac", "flac", 48_000, (1.0, 1.0, 1.0, 0.0, 0.0, 0.0)),
}


def write_random_bytes(path: Path) -> Path:
    """50 kB of seeded random bytes under an audio name: neither container nor codec."""
    path.write_bytes(np.random.default_rng(7).integers(0, 256, 50_000, np.uint8).tobytes())
    return path


def write_empty_wav(path: Path) -> Path:
    """A valid 16-bit mono WAV with no samples, written by the standard library (44 bytes)."""
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(RATE)
        wav.writeframes(b"")
    return path


def read_wav_mono(path: Path) -> np.ndarray:
    """A 16-bit mono WAV as float32 in [-1, 1], shape [n_samples]."""
    with wave.open(str(path), "rb") as wav:
        assert wav.getsampwidth() == 2 and wav.getnchannels() == 1
        assert wav.getframerate() == RATE
        pcm = np.frombuffer(wav.readframes(wav.getnframes()), dtype="<i2")
    return (pcm.astype(np.float32) / 32768.0).astype(np.float32)


def write_audio(path: Path, clip_16k: np.ndarray, enc: Encoding) -> Path:
    """Encode `clip_16k` (mono float32, 16 kHz) as `enc` into `path` with PyAV."""
    audio = clip_16k if enc.rate == RATE else soxr.resample(clip_16k, RATE, enc.rate)
    planes = np.stack([gain * audio for gain in enc.gains]).astype(np.float32)
    with av.open(str(path), "w", format=enc.container) as out:
        stream = out.add_stream(enc.codec, rate=enc.rate, layout=enc.layout)
        if enc.bit_rate:
            stream.bit_rate = enc.bit_rate
        _encode_planes(out, stream, planes, enc.rate, enc.layout)
    return path


def _encode_planes(
    out: av.container.OutputContainer,
    stream: av.audio.stream.AudioStream,
    planes: np.ndarray,
    rate: int,
    layout: str,
) -> None:
    step = 1024
    for start in range(0, planes.shape[1], step):
        block = np.ascontiguousarray(planes[:, start : start + step])
        frame = av.AudioFrame.from_ndarray(block, format="fltp", layout=layout)
        frame.sample_rate = rate
        frame.pts = start
        frame.time_base = Fraction(1, rate)
        out.mux(stream.encode(frame))
    out.mux(stream.encode(None))


def write_video(path: Path, clip_16k: np.ndarray | None, n_frames: int = 12) -> Path:
    """A small mp4: `n_frames` of 64x48 mpeg4 video at 4 fps, plus the clip as aac if given."""
    with av.open(str(path), "w") as out:
        video = out.add_stream("mpeg4", rate=4)
        video.width, video.height, video.pix_fmt = 64, 48, "yuv420p"
        audio = None
        if clip_16k is not None:
            audio = out.add_stream("aac", rate=44_100, layout="mono")
        for i in range(n_frames):
            rgb = np.full((48, 64, 3), (i * 20) % 256, dtype=np.uint8)
            frame = av.VideoFrame.from_ndarray(rgb, format="rgb24")
            frame.pts = i
            out.mux(video.encode(frame))
        out.mux(video.encode(None))
        if audio is not None and clip_16k is not None:
            planes = soxr.resample(clip_16k, RATE, 44_100)[np.newaxis, :].astype(np.float32)
            _encode_planes(out, audio, planes, 44_100, "mono")
    return path

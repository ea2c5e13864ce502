"""The file decoder on real media files: every format a user drops gives the same audio back.

The fixture files are encoded at test time with PyAV's bundled FFmpeg (see conftest.py) from a
committed espeak-ng clip; the decoded result is compared with that clip.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import soxr
from media_fixtures import RATE, SOURCE_CLIP, Encoding, write_audio, write_empty_wav, write_random_bytes, write_video

from app.audio.file_decoder import (
    AudioDecodeError,
    decode_audio,
    iter_audio_chunks,
    probe_duration,
)

MAX_LAG = 800  # samples (50 ms) searched when aligning decoded audio with the reference
LENGTH_TOLERANCE = 80  # samples (5 ms): AAC may add up to a few ms of padding at the end


def best_alignment(decoded: np.ndarray, reference: np.ndarray) -> tuple[int, float]:
    """(lag in samples, normalised cross-correlation) at the best lag within +-MAX_LAG."""
    n = len(decoded) + len(reference)
    spectrum = np.fft.rfft(decoded, n) * np.conj(np.fft.rfft(reference, n))
    corr = np.fft.irfft(spectrum, n)
    lags = np.r_[np.arange(0, MAX_LAG + 1), np.arange(-MAX_LAG, 0)]
    best = int(np.argmax(corr[lags]))
    norm = np.sqrt(np.dot(decoded, decoded) * np.dot(reference, reference))
    return int(lags[best]), float(corr[lags][best] / norm)


def rms(x: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(x, dtype=np.float64))))


@pytest.mark.parametrize(
    ("name", "min_corr"),
    [
        ("flac", 0.9999),
        ("wav_44k", 0.999),
        ("wav_48k", 0.999),
        ("mp3", 0.99),
        ("opus_ogg", 0.98),
        ("aac_m4a", 0.99),
        ("wav_stereo", 0.999),
        ("flac_5_1", 0.999),
    ],
)
def test_every_format_decodes_to_the_original_clip(
    encoded: Callable[[str], Path], source_clip: np.ndarray, name: str, min_corr: float
) -> None:
    decoded = decode_audio(encoded(name))

    assert decoded.dtype == np.float32 and decoded.ndim == 1
    assert abs(len(decoded) - len(source_clip)) <= LENGTH_TOLERANCE
    lag, corr = best_alignment(decoded, source_clip)
    assert abs(lag) <= 16, f"{name}: audio shifted by {lag} samples"
    assert corr >= min_corr, f"{name}: correlation {corr:.4f}"
    assert np.abs(decoded).max() <= 1.0


def test_8khz_file_matches_the_band_limited_original(
    encoded: Callable[[str], Path], source_clip: np.ndarray
) -> None:
    """An 8 kHz file has nothing above 4 kHz: compare with the clip limited the same way."""
    decoded = decode_audio(encoded("wav_8k"))
    band_limited = soxr.resample(soxr.resample(source_clip, RATE, 8_000), 8_000, RATE)

    assert abs(len(decoded) - len(source_clip)) <= LENGTH_TOLERANCE
    lag, corr = best_alignment(decoded, band_limited[: len(source_clip)])
    assert abs(lag) <= 16
    assert corr >= 0.999


def test_stereo_is_averaged_not_summed(
    encoded: Callable[[str], Path], source_clip: np.ndarray
) -> None:
    """Left at full level, right at half: mono is their mean, 0.75 of the clip, never louder."""
    decoded = decode_audio(encoded("wav_stereo"))

    assert rms(decoded) / rms(source_clip) == pytest.approx(0.75, abs=0.01)


def test_audio_track_of_a_video(tmp_path: Path, source_clip: np.ndarray) -> None:
    video = write_video(tmp_path / "talk_with_picture.mp4", source_clip)

    decoded = decode_audio(video)

    assert abs(len(decoded) - len(source_clip)) <= LENGTH_TOLERANCE
    lag, corr = best_alignment(decoded, source_clip)
    assert abs(lag) <= 16 and corr >= 0.98


def test_other_output_rate(encoded: Callable[[str], Path], source_clip: np.ndarray) -> None:
    decoded = decode_audio(encoded("flac"), sample_rate=8_000)

    assert abs(len(decoded) - len(source_clip) // 2) <= LENGTH_TOLERANCE // 2


def test_headerless_raw_is_s16le_16khz_mono(tmp_path: Path, source_clip: np.ndarray) -> None:
    raw = tmp_path / "dictation_capture.raw"
    pcm = np.round(source_clip * 32768).astype("<i2")
    raw.write_bytes(pcm.tobytes())

    decoded = decode_audio(raw)

    np.testing.assert_array_equal(decoded, pcm.astype(np.float32) / 32768)
    assert probe_duration(raw) == pytest.approx(len(pcm) / RATE, abs=1e-3)


def test_chunks_concatenate_to_the_whole_file(encoded: Callable[[str], Path]) -> None:
    path = encoded("mp3")
    whole = decode_audio(path)

    chunks = list(iter_audio_chunks(path, chunk_s=2.0))

    assert [len(c) for c in chunks[:-1]] == [2 * RATE] * (len(chunks) - 1)
    assert 0 < len(chunks[-1]) <= 2 * RATE
    np.testing.assert_array_equal(np.concatenate(chunks), whole)


@pytest.mark.parametrize("name", ["wav_44k", "mp3", "opus_ogg", "aac_m4a"])
def test_probe_duration_from_metadata(
    encoded: Callable[[str], Path], source_clip: np.ndarray, name: str
) -> None:
    duration = probe_duration(encoded(name))

    assert duration == pytest.approx(len(source_clip) / RATE, abs=0.05)


def test_probe_duration_is_none_when_unreadable(tmp_path: Path) -> None:
    junk = tmp_path / "junk_probe.wav"
    junk.write_bytes(os.urandom(4096))

    assert probe_duration(junk) is None
    assert probe_duration(tmp_path / "missing_probe.mp3") is None


def test_non_ascii_file_name(tmp_path: Path, encoded: Callable[[str], Path]) -> None:
    renamed = tmp_path / "réunion équipe 会议.flac"
    shutil.copy(encoded("flac"), renamed)

    assert len(decode_audio(renamed)) == len(decode_audio(encoded("flac")))


def test_truncated_mp3_returns_the_part_that_decodes(
    tmp_path: Path, encoded: Callable[[str], Path]
) -> None:
    full_file = encoded("mp3")
    data = full_file.read_bytes()
    cut = tmp_path / "cut_in_half.mp3"
    cut.write_bytes(data[: len(data) // 2])
    full = decode_audio(full_file)

    half = decode_audio(cut)

    assert 0.4 * len(full) < len(half) < 0.6 * len(full)
    np.testing.assert_allclose(half[:RATE], full[:RATE], atol=1e-4)


# --- bad inputs: one clear line naming the file and the reason -------------------------------


def assert_clear_error(path: Path, *reason_words: str) -> None:
    with pytest.raises(AudioDecodeError) as caught:
        decode_audio(path)
    message = str(caught.value)
    assert path.name in message
    assert "\n" not in message
    for word in reason_words:
        assert word in message.lower(), message
    with pytest.raises(AudioDecodeError):
        next(iter_audio_chunks(path))


def test_missing_file(tmp_path: Path) -> None:
    assert_clear_error(tmp_path / "never_recorded.wav", "no such file")


def test_directory(tmp_path: Path) -> None:
    folder = tmp_path / "a_folder.wav"
    folder.mkdir()
    assert_clear_error(folder, "folder")


def test_empty_file(tmp_path: Path) -> None:
    empty = tmp_path / "zero_bytes.mp3"
    empty.touch()
    assert_clear_error(empty, "empty", "0 bytes")


def test_random_bytes_named_wav(tmp_path: Path) -> None:
    assert_clear_error(write_random_bytes(tmp_path / "random_bytes.wav"), "not an audio or video file")


def test_zero_length_audio(tmp_path: Path) -> None:
    """A valid WAV with no samples, written by the standard library (PyAV writes nothing)."""
    silent = write_empty_wav(tmp_path / "no_samples.wav")
    assert silent.stat().st_size == 44
    assert_clear_error(silent, "empty", "zero length")


def test_video_without_audio(tmp_path: Path) -> None:
    assert_clear_error(write_video(tmp_path / "silent_movie.mp4", None), "no audio track")


def test_truncated_file_with_nothing_decodable(tmp_path: Path) -> None:
    """The WAV header survives but the data chunk is cut inside the first sample."""
    head = SOURCE_CLIP.read_bytes()[:45]
    cut = tmp_path / "cut_after_header.wav"
    cut.write_bytes(head)
    assert_clear_error(cut, "truncated")


def test_error_message_for_a_user(tmp_path: Path) -> None:
    with pytest.raises(AudioDecodeError) as caught:
        decode_audio(tmp_path / "meeting notes.m4a")
    error = caught.value
    assert str(error).startswith("Cannot read audio from '")
    assert error.path.endswith("meeting notes.m4a")
    assert error.reason == "no such file"


def test_mp3s_joined_with_cat_decode_across_the_change_of_rate_and_channels(
    tmp_path: Path, source_clip: np.ndarray
) -> None:
    """`cat a.mp3 b.mp3` (22.05 kHz mono, then 44.1 kHz stereo): a plain PyAV decode loop
    raises at the join; the decoder skips the bad packet and keeps both parts."""
    first = write_audio(tmp_path / "a.mp3", source_clip, Encoding(".mp3", "libmp3lame", 22_050))
    second_enc = Encoding(".mp3", "libmp3lame", 44_100, (1.0, 1.0))
    second = write_audio(tmp_path / "b.mp3", source_clip, second_enc)
    joined = tmp_path / "joined_parts.mp3"
    joined.write_bytes(first.read_bytes() + second.read_bytes())

    decoded = decode_audio(joined)

    n = len(source_clip)
    assert abs(len(decoded) - 2 * n) <= 0.1 * RATE
    _, corr_second = best_alignment(decoded[-n:], source_clip)
    assert corr_second >= 0.98

"""The ffmpeg command-line backend (app/audio/ffmpeg_decoder.py), which the .deb uses instead of
PyAV: the same samples and text on every format of the file-format tests, the same one-line
errors, a clear "install ffmpeg" message without it, and no process or pipe left behind when a
decode ends, fails or is cancelled.

These run Debian's real `ffmpeg`/`ffprobe` (.ci/run installs the ffmpeg package) on files PyAV
encodes (media_fixtures), through the public file_decoder functions with the ffmpeg backend
selected, as an installation without PyAV selects it (the subprocess test proves that choice).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from earshot_testing import REPO_ROOT
from media_fixtures import (
    ENCODINGS,
    RATE,
    SOURCE_CLIP,
    read_wav_mono,
    write_audio,
    write_empty_wav,
    write_random_bytes,
    write_video,
)

from app.audio import ffmpeg_decoder, file_decoder, pyav_decoder
from app.audio.file_decoder import AudioDecodeError, decode_audio, iter_audio_chunks, probe_duration
from app.engine.types import DecodeOptions
from app.engine.wer import normalize

LENGTH_TOLERANCE = 80  # samples (5 ms), as in test_file_decoder.py
GREEDY = DecodeOptions(beam_size=1, temperatures=(0.0,))
FORMATS = [*ENCODINGS, "video"]


@pytest.fixture(autouse=True)
def ffmpeg_backend(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(file_decoder, "_backend", ffmpeg_decoder)
    yield
    assert _children("ffmpeg", "ffprobe") == [], "a decoder process outlived its decode"


def _children(*names: str) -> list[int]:
    """Pids of this process's children (running or zombie) whose command is one of `names`."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        comm, rest = text[text.index("(") + 1 : text.rindex(")")], text[text.rindex(")") + 2 :].split()
        if comm in names and int(rest[1]) == os.getpid():
            found.append(int(stat.parent.name))
    return found


@pytest.fixture(scope="module")
def media(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("ffmpeg_media")
    clip = read_wav_mono(SOURCE_CLIP)
    files = {name: write_audio(folder / f"clip_{name}{enc.suffix}", clip, enc) for name, enc in ENCODINGS.items()}
    files["video"] = write_video(folder / "clip_video.mp4", clip)
    return files


def _pyav(path: Path) -> np.ndarray:
    return np.concatenate(list(pyav_decoder.decode_blocks(path, RATE)))


@pytest.mark.parametrize("name", FORMATS)
def test_every_format_gives_the_samples_pyav_gives(media: dict[str, Path], name: str) -> None:
    decoded, reference = decode_audio(media[name]), _pyav(media[name])

    assert decoded.dtype == np.float32 and decoded.ndim == 1
    assert abs(len(decoded) - len(reference)) <= LENGTH_TOLERANCE
    n = min(len(decoded), len(reference))
    difference = np.sqrt(np.mean(np.square(decoded[:n] - reference[:n], dtype=np.float64)))
    assert difference <= 1e-3 * np.sqrt(np.mean(np.square(reference, dtype=np.float64))), name
    assert probe_duration(media[name]) == pytest.approx(len(reference) / RATE, abs=0.05)


@pytest.mark.parametrize("name", FORMATS)
def test_every_format_gives_the_same_text(engine, media: dict[str, Path], name: str) -> None:
    def text(audio: np.ndarray) -> str:
        return normalize(" ".join(s.text for s in engine.transcribe(audio, GREEDY)[0]))

    assert text(decode_audio(media[name])) == text(_pyav(media[name]))


def test_stereo_is_averaged_not_summed(media: dict[str, Path]) -> None:
    """Left at full level, right at half: the mean is 0.75 of the clip (ffmpeg's -ac 1 alone sums)."""
    decoded, clip = decode_audio(media["wav_stereo"]), read_wav_mono(SOURCE_CLIP)
    assert np.sqrt(np.mean(decoded**2)) / np.sqrt(np.mean(clip**2)) == pytest.approx(0.75, abs=0.01)


def test_other_rate_raw_pcm_and_chunks(media: dict[str, Path], tmp_path: Path) -> None:
    clip = read_wav_mono(SOURCE_CLIP)
    assert abs(len(decode_audio(media["flac"], sample_rate=8_000)) - len(clip) // 2) <= LENGTH_TOLERANCE // 2
    raw = tmp_path / "dictation_capture.raw"
    pcm = np.round(clip * 32768).astype("<i2")
    raw.write_bytes(pcm.tobytes())
    np.testing.assert_array_equal(decode_audio(raw), pcm.astype(np.float32) / 32768)
    assert probe_duration(raw) == pytest.approx(len(pcm) / RATE, abs=1e-3)
    chunks = list(iter_audio_chunks(media["mp3"], chunk_s=2.0))
    assert [len(c) for c in chunks[:-1]] == [2 * RATE] * (len(chunks) - 1)
    np.testing.assert_array_equal(np.concatenate(chunks), decode_audio(media["mp3"]))


def test_names_ffmpeg_would_read_as_options_or_urls(media: dict[str, Path], tmp_path: Path) -> None:
    odd = tmp_path / "-y http: réunion 会议.flac"
    odd.write_bytes(media["flac"].read_bytes())
    assert len(decode_audio(odd)) == len(decode_audio(media["flac"]))


def test_cancel_kills_the_decoder(tmp_path: Path) -> None:
    """A consumer that stops after the first chunk (a cancelled job) ends ffmpeg at once: the
    process is killed and reaped when the iterator is closed, not when the file is done."""
    long_clip = np.tile(read_wav_mono(SOURCE_CLIP), 40)  # about 5 minutes
    path = write_audio(tmp_path / "long_meeting.flac", long_clip, ENCODINGS["flac"])
    chunks = iter_audio_chunks(path, chunk_s=1.0)
    assert len(next(chunks)) == RATE
    running = _children("ffmpeg")
    assert len(running) == 1
    chunks.close()
    assert _children("ffmpeg") == []
    assert not Path(f"/proc/{running[0]}").exists()


def _assert_clear_error(path: Path, *reason_words: str) -> None:
    for decode in (decode_audio, lambda p: next(iter_audio_chunks(p))):
        with pytest.raises(AudioDecodeError) as caught:
            decode(path)
        message = str(caught.value)
        assert path.name in message and "\n" not in message
        for word in reason_words:
            assert word in message.lower(), message


def test_bad_files_give_the_same_one_line_errors(tmp_path: Path) -> None:
    junk = write_random_bytes(tmp_path / "random_bytes.wav")
    _assert_clear_error(junk, "not an audio or video file")
    _assert_clear_error(write_video(tmp_path / "silent_movie.mp4", None), "no audio track")
    _assert_clear_error(write_empty_wav(tmp_path / "no_samples.wav"), "empty", "zero length")
    cut = tmp_path / "cut_after_header.wav"
    cut.write_bytes(SOURCE_CLIP.read_bytes()[:45])
    _assert_clear_error(cut, "truncated")
    empty = tmp_path / "zero_bytes.mp3"
    empty.touch()
    _assert_clear_error(empty, "empty", "0 bytes")
    assert probe_duration(junk) is None


def test_truncated_mp3_returns_the_part_that_decodes(media: dict[str, Path], tmp_path: Path) -> None:
    data = media["mp3"].read_bytes()
    cut = tmp_path / "cut_in_half.mp3"
    cut.write_bytes(data[: len(data) // 2])
    full, half = decode_audio(media["mp3"]), decode_audio(cut)
    assert 0.4 * len(full) < len(half) < 0.6 * len(full)
    np.testing.assert_allclose(half[:RATE], full[:RATE], atol=1e-4)


def test_without_ffmpeg_the_message_says_install_it(
    media: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # a PATH with no ffmpeg on it
    _assert_clear_error(media["mp3"], "install ffmpeg")
    assert probe_duration(media["mp3"]) is None


def test_a_frozen_apps_library_folder_does_not_reach_the_system_ffmpeg(
    media: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PyInstaller's bootloader puts the bundle's folder first on LD_LIBRARY_PATH; a bundled library
    named like one Debian's ffmpeg links (here a broken libz.so.1) must not be loaded by ffmpeg."""
    bundle_libs = tmp_path / "_internal"
    bundle_libs.mkdir()
    (bundle_libs / "libz.so.1").write_bytes(b"not a library")
    expected = len(decode_audio(media["flac"]))
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setenv("LD_LIBRARY_PATH", str(bundle_libs))
    assert len(decode_audio(media["flac"])) == expected
    assert probe_duration(media["flac"]) == pytest.approx(expected / RATE, abs=0.05)
    monkeypatch.setenv("LD_LIBRARY_PATH_ORIG", str(bundle_libs))  # the user's own value comes back...
    assert ffmpeg_decoder.system_program_env()["LD_LIBRARY_PATH"] == str(bundle_libs)  # type: ignore[index]
    _assert_clear_error(media["flac"], "ffmpeg is installed but cannot run", "libz.so.1")  # ...and says so


def test_without_pyav_the_app_chooses_ffmpeg_and_transcribes(media: dict[str, Path], tmp_path: Path) -> None:
    """`import av` fails (as in the .deb): the CLI picks the ffmpeg backend and gives the text
    of the source WAV for an mp3 and the mp4's audio track."""
    no_pyav = ("import sys, runpy; sys.modules['av'] = None; "  # None in sys.modules: import raises ImportError
               "import app.audio.file_decoder as d; print('backend', d.BACKEND, flush=True); "
               "sys.argv[0] = 'earshot'; runpy.run_module('app', run_name='__main__')")
    files = [media["mp3"], media["video"], SOURCE_CLIP]
    result = subprocess.run([sys.executable, "-c", no_pyav, "transcribe", "--beam-size", "1", "--format", "txt",
                             "--output-dir", str(tmp_path), *map(str, files)],
                            cwd=REPO_ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("backend ffmpeg\n")
    texts = {normalize((tmp_path / f"{f.stem}.txt").read_text(encoding="utf-8")) for f in files}
    assert len(texts) == 1 and "good morning" in texts.pop()


def test_with_pyav_the_app_keeps_pyav() -> None:
    assert file_decoder.BACKEND == "PyAV"  # this environment has the av wheel




def test_opening_a_file_stream_runs_ffprobe_once(media: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """Decoding and the progress bar's duration both need ffprobe's answer; each ffprobe is a
    process start (seconds on a loaded machine), so the same unchanged file is probed once."""
    from app.audio.file_stream import open_file_stream

    runs: list[str] = []
    real = ffmpeg_decoder._run_probe

    def counted(path: str | os.PathLike[str]) -> object:
        runs.append(os.fspath(path))
        return real(path)

    monkeypatch.setattr(ffmpeg_decoder, "_last_probe", None)
    monkeypatch.setattr(ffmpeg_decoder, "_run_probe", counted)
    stream = open_file_stream(media["mp3"])
    try:
        assert stream.duration_s is not None and stream.duration_s > 1.0
    finally:
        stream.chunks.close()  # type: ignore[attr-defined]
    assert len(runs) == 1
    media["mp3"].touch()  # changed on disk: asked again
    assert probe_duration(media["mp3"]) is not None
    assert len(runs) == 2


@pytest.mark.parametrize("name", ["wav_8k", "wav_44k", "wav_48k", "wav_stereo"])
def test_without_ffmpeg_wav_files_still_decode(
    media: dict[str, Path], name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No ffmpeg on PATH (an installation without PyAV on a system without the ffmpeg package):
    a PCM WAV gives ffmpeg's samples (resampled by soxr instead of libswresample: the same signal
    within a small error), its duration, and the same 30 s chunks; an mp3 still says "install ffmpeg"."""
    with_ffmpeg, duration = decode_audio(media[name]), probe_duration(media[name])
    monkeypatch.setenv("PATH", str(tmp_path))
    decoded = decode_audio(media[name])
    assert abs(len(decoded) - len(with_ffmpeg)) <= LENGTH_TOLERANCE
    n = min(len(decoded), len(with_ffmpeg))
    error = np.sqrt(np.mean((decoded[:n] - with_ffmpeg[:n]) ** 2)) / np.sqrt(np.mean(with_ffmpeg[:n] ** 2))
    assert error < (0.05 if name == "wav_8k" else 0.01), error
    assert probe_duration(media[name]) == pytest.approx(duration, abs=0.01)
    assert np.array_equal(np.concatenate(list(iter_audio_chunks(media[name], chunk_s=0.7))), decoded)
    _assert_clear_error(media["mp3"], "install ffmpeg")


def test_without_ffmpeg_8_24_and_32_bit_wavs_decode(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every integer PCM width `wave` reads: the same 16 kHz tone, at its level, from each."""
    import wave

    tone = 0.5 * np.sin(2 * np.pi * 440 * np.arange(RATE) / RATE)
    cells = {1: np.round(tone * 127 + 128).astype(np.uint8).tobytes(),
             3: b"".join(int(v).to_bytes(3, "little", signed=True) for v in np.round(tone * 8388607)),
             4: np.round(tone * 2147483647).astype("<i4").tobytes()}
    monkeypatch.setenv("PATH", str(tmp_path))
    for width, frames in cells.items():
        path = tmp_path / f"tone_{8 * width}bit.wav"
        with wave.open(str(path), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(width)
            out.setframerate(RATE)
            out.writeframes(frames)
        np.testing.assert_allclose(decode_audio(path), tone, atol=1.0 / 127)


def test_without_ffmpeg_bad_wavs_give_one_line_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    empty = write_empty_wav(tmp_path / "no_samples.wav")
    cut = tmp_path / "cut_after_header.wav"
    cut.write_bytes(SOURCE_CLIP.read_bytes()[:45])
    junk = write_random_bytes(tmp_path / "random_bytes.wav")
    monkeypatch.setenv("PATH", str(tmp_path))
    _assert_clear_error(empty, "empty", "zero length")
    _assert_clear_error(cut, "truncated")
    _assert_clear_error(junk, "install ffmpeg")  # not a WAV `wave` reads: FFmpeg's to try
    assert probe_duration(junk) is None

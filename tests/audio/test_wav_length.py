"""A WAV whose header declares less audio than the file holds (a recorder killed between two
rewrites of its header) is read to the end of the file by every decoding backend, with one
warning; chunks that follow the audio (LIST, id3) are still left out of the samples.

Real files, real decoders: PyAV, Debian's `ffmpeg` command and the `wave` fallback used
without either. The cut-off header is made by rewriting the lengths of a committed espeak clip.
"""

from __future__ import annotations

import json
import logging
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from earshot_testing import DATA_DIR, REPO_ROOT

from app.audio import ffmpeg_decoder, file_decoder, wav_fallback
from app.audio.file_decoder import decode_audio, probe_duration
from app.audio.wav_length import trailing_audio

CLIP = DATA_DIR / "espeak_meeting.wav"
RATE = 16_000


def _data_chunk(data: bytes) -> int:
    """Offset of the 'data' chunk header in a RIFF/WAVE file's bytes."""
    at = 12
    while data[at : at + 4] != b"data":
        at += 8 + struct.unpack("<I", data[at + 4 : at + 8])[0]
    return at


def _declaring(tmp_path: Path, seconds: float, after: bytes = b"") -> Path:
    """The clip with its header declaring only `seconds` of audio (the RIFF size to match), and
    `after` appended to the file."""
    data = bytearray(CLIP.read_bytes())
    at = _data_chunk(bytes(data))
    declared = int(seconds * RATE) * 2
    data[at + 4 : at + 8] = struct.pack("<I", declared)
    data[4:8] = struct.pack("<I", at + 8 + declared - 8)
    path = tmp_path / f"cut_{seconds:g}.wav"
    path.write_bytes(bytes(data) + after)
    return path


def _with_list_chunk(tmp_path: Path) -> Path:
    """The clip, intact, with a LIST/INFO chunk after its audio (as many recorders write)."""
    title = b"INFOINAM" + struct.pack("<I", 8) + b"meeting\x00"
    chunk = b"LIST" + struct.pack("<I", len(title)) + title
    data = bytearray(CLIP.read_bytes() + chunk)
    data[4:8] = struct.pack("<I", len(data) - 8)
    path = tmp_path / "with_list.wav"
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("backend", ["pyav", "ffmpeg", "wave"])
def test_a_header_cut_off_mid_recording_is_read_to_the_end(
    backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    intact = decode_audio(CLIP)
    if backend != "pyav":
        monkeypatch.setattr(file_decoder, "_backend", ffmpeg_decoder)
    if backend == "wave":
        monkeypatch.setenv("PATH", str(tmp_path))  # no ffmpeg: the `wave` module reads it
        assert wav_fallback.readable(CLIP)
    expected = decode_audio(CLIP)  # this backend's samples of the intact file
    cut = _declaring(tmp_path, 1.0)
    with caplog.at_level(logging.WARNING, logger="app.audio.wav_length"):
        decoded = decode_audio(cut)
    assert len(decoded) == len(expected) and len(expected) == pytest.approx(len(intact), abs=80)
    np.testing.assert_allclose(decoded, expected, atol=1e-6)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "declares 1.0 s" in warnings[0], warnings
    assert probe_duration(cut) == pytest.approx(len(intact) / RATE, abs=0.01)


def test_a_header_that_declares_no_audio_is_read_to_the_end(tmp_path: Path) -> None:
    assert len(decode_audio(_declaring(tmp_path, 0.0))) == len(decode_audio(CLIP))


def test_a_chunk_after_the_audio_stays_out_of_the_samples(tmp_path: Path) -> None:
    """A LIST chunk after the data chunk is metadata: the samples are the intact clip's, with no
    burst of its bytes decoded as sound at the end, and no warning."""
    path = _with_list_chunk(tmp_path)
    assert trailing_audio(path) is None
    np.testing.assert_array_equal(decode_audio(path), decode_audio(CLIP))
    assert trailing_audio(CLIP) is None


def test_a_few_stray_bytes_after_the_audio_are_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "stray.wav"
    path.write_bytes(CLIP.read_bytes() + b"\x00" * 100)
    assert trailing_audio(path) is None
    assert len(decode_audio(path)) == len(decode_audio(CLIP))


def test_the_cli_transcribes_all_of_a_cut_off_recording_and_says_so(tmp_path: Path) -> None:
    """`earshot transcribe` on the clip whose header declares its first second: the text of
    the whole clip, and one line on stderr naming both lengths."""
    cut = _declaring(tmp_path, 1.0)
    texts = {}
    for path in (CLIP, cut):
        done = subprocess.run(
            [sys.executable, "-m", "app", "transcribe", str(path), "--format", "json", "--output-dir", str(tmp_path)],
            cwd=REPO_ROOT, capture_output=True, text=True, timeout=300, check=False,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        texts[path] = json.loads((tmp_path / f"{path.stem}.json").read_text())["text"]
        if path == cut:
            lines = [line for line in done.stderr.splitlines() if "declares" in line]
            assert len(lines) == 1 and "1.0 s" in lines[0] and "holds" in lines[0], done.stderr
    assert len(texts[CLIP].split()) >= 8
    assert texts[cut] == texts[CLIP]

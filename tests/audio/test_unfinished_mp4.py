"""An MP4 or M4A recording that was never finished (the recorder crashed or lost power before it
wrote the index, the 'moov' box, at the end) is named as such by both decoding backends and by
the CLI, instead of "unknown format or damaged": the user learns that their sound is there and
that a repair tool can rebuild the file. Finished files still decode; other unreadable files
keep the general reason.

Real files: muxed by PyAV from a committed espeak-ng clip (the muxer writes the index last, as
recorders do), then cut short as a crashed recorder leaves them; decoded by PyAV and by
Debian's `ffmpeg` command.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from earshot_testing import REPO_ROOT
from media_fixtures import ENCODINGS, write_audio, write_random_bytes, write_video

from app.audio import ffmpeg_decoder, file_decoder
from app.audio.decode_common import NOT_MEDIA_REASON, SAMPLE_RATE, AudioDecodeError
from app.audio.file_decoder import decode_audio
from app.audio.mp4_index import is_unfinished_mp4, top_level_boxes


def _finished(kind: str, folder: Path, clip: np.ndarray) -> Path:
    if kind == "mp4 video":
        return write_video(folder / "finished.mp4", clip, n_frames=40)
    return write_audio(folder / "finished.m4a", clip, ENCODINGS["aac_m4a"])


def _cut(path: Path, fraction: float) -> Path:
    """The file's first `fraction` of bytes, as a recorder stopped mid-recording leaves it."""
    data = path.read_bytes()
    cut = path.with_name(f"cut{path.suffix}")
    cut.write_bytes(data[: int(len(data) * fraction)])
    return cut


@pytest.mark.parametrize("backend", ["pyav", "ffmpeg"])
@pytest.mark.parametrize("kind", ["mp4 video", "m4a audio"])
def test_a_recording_cut_before_its_index_is_named_unfinished(
    kind: str, backend: str, tmp_path: Path, source_clip: np.ndarray, monkeypatch: pytest.MonkeyPatch
) -> None:
    if backend == "ffmpeg":
        monkeypatch.setattr(file_decoder, "_backend", ffmpeg_decoder)
    finished = _finished(kind, tmp_path, source_clip)
    boxes = top_level_boxes(finished)
    assert boxes[0] == b"ftyp" and boxes[-1] == b"moov", boxes  # the index comes last
    assert len(decode_audio(finished)) > SAMPLE_RATE  # the finished file reads
    for fraction in (0.3, 0.9):
        cut = _cut(finished, fraction)
        with pytest.raises(AudioDecodeError) as caught:
            decode_audio(cut)
        message = str(caught.value)
        assert "unfinished MP4/MOV recording" in message and "'moov' box" in message, message
        assert message.startswith(f"Cannot read audio from '{cut}'") and "\n" not in message


def test_other_unreadable_files_keep_the_general_reason(tmp_path: Path, source_clip: np.ndarray) -> None:
    """Random bytes, an MP4 whose first box is followed by garbage, and a cut that ends inside the
    opening 'ftyp' box hold no media data: they are not called recordings."""
    finished = write_video(tmp_path / "finished.mp4", source_clip, n_frames=40)
    data = finished.read_bytes()
    ftyp_size = int.from_bytes(data[:4], "big")
    cases = {
        "random.mp4": write_random_bytes(tmp_path / "random.mp4").read_bytes(),
        "garbage.mp4": data[:ftyp_size] + bytes(range(256)) * 40,
        "header.mp4": data[: ftyp_size - 4],
    }
    for name, content in cases.items():
        path = tmp_path / name
        path.write_bytes(content)
        assert not is_unfinished_mp4(path), name
        with pytest.raises(AudioDecodeError) as caught:
            decode_audio(path)
        assert NOT_MEDIA_REASON in str(caught.value), (name, str(caught.value))
    assert not is_unfinished_mp4(finished) and not is_unfinished_mp4(tmp_path / "missing.mp4")


def test_the_cli_names_an_unfinished_recording_in_one_line(tmp_path: Path, source_clip: np.ndarray) -> None:
    cut = _cut(write_video(tmp_path / "meeting.mp4", source_clip, n_frames=40), 0.5)
    done = subprocess.run(
        [sys.executable, "-m", "app", "transcribe", str(cut), "--output-dir", str(tmp_path / "out")],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "unfinished MP4/MOV recording" in lines[0] and "cut.mp4" in lines[0], done.stderr
    assert "Traceback" not in done.stderr

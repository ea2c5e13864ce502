"""The ffmpeg command-line file-decoding backend, for installations without PyAV: the .deb
(which depends on the distribution's `ffmpeg` package) and the .tar.xz (every desktop
distribution packages ffmpeg), instead of carrying PyAV's FFmpeg. Without ffmpeg on PATH, PCM
WAV files still decode (`wav_fallback`); other formats say to install ffmpeg.

`ffprobe` says whether the file is media, whether it has an audio track and how long it is;
`ffmpeg` decodes the first audio track to mono float32 at the wanted rate into a pipe, which is
read one block at a time as the caller asks, so a long file streams in bounded memory. A caller
that stops early (a cancelled transcription closes the generator) kills the process; it is
always reaped and its pipes closed. Mixing and resampling are libswresample's, as with PyAV
(the same normalised mix: stereo -> mono is the mean). Paths are checked by the caller.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Generator
from typing import IO, Any

import numpy as np

from app.audio import wav_fallback
from app.audio.decode_common import (
    NO_AUDIO_TRACK_REASON,
    AudioDecodeError,
    Samples,
    display_name,
    finite,
    is_raw_pcm,
    no_samples_reason,
    not_media_reason,
)
from app.audio.wav_length import TrailingAudio

NAME = "ffmpeg"

MISSING_REASON = "FFmpeg is not installed: install ffmpeg (e.g. `sudo apt install ffmpeg`) to read audio files"

BLOCK_BYTES = 4 * 16_000
"""Bytes read from the pipe at a time: one second of float32 at 16 kHz."""

PROBE_TIMEOUT_S = 120.0
"""ffprobe reads headers only (seconds even on a slow network drive); past this it is stuck."""

_RAW_INPUT = ["-f", "s16le", "-ar", "16000", "-ac", "1"]

_log = logging.getLogger(__name__)


def _tool(name: str, path: str | os.PathLike[str]) -> str:
    """The full path of `name` (ffmpeg or ffprobe) on PATH; `AudioDecodeError` when missing."""
    found = shutil.which(name)
    if found is None:
        raise AudioDecodeError(path, MISSING_REASON)
    return found


def system_program_env() -> dict[str, str] | None:
    """The environment for a program of the user's system (None: this process's, unchanged).

    A frozen app's bootloader puts its own library folder first on LD_LIBRARY_PATH (keeping the
    user's value in LD_LIBRARY_PATH_ORIG) and children inherit it: the bundle's libz, freetype,
    fontconfig... (copied from the build host) would then shadow the libraries the system's
    ffmpeg was built against. The user's own LD_LIBRARY_PATH, if any, is given back.
    """
    if not getattr(sys, "frozen", False) and "LD_LIBRARY_PATH_ORIG" not in os.environ:
        return None
    env = dict(os.environ)
    original = env.pop("LD_LIBRARY_PATH_ORIG", None)
    if original is None:
        env.pop("LD_LIBRARY_PATH", None)
    else:
        env["LD_LIBRARY_PATH"] = original
    return env


def _input_args(path: str | os.PathLike[str]) -> list[str]:
    """`-i file:/abs/path`: the file protocol, so a name like `http:x` or `-x` stays a file name."""
    raw = _RAW_INPUT if is_raw_pcm(path) else []
    return [*raw, "-i", "file:" + os.path.abspath(os.fspath(path))]


_last_probe: tuple[tuple[str, int, int], dict[str, Any] | None] | None = None
"""The latest file probed and ffprobe's answer: opening a file stream probes it to decode and
again for its duration (file_stream.py), and each ffprobe is a process start."""


def _probe(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """`_run_probe`, answered again without a process for the same unchanged file."""
    global _last_probe
    try:
        stat = os.stat(path)
    except OSError:  # gone since the caller checked it: ffprobe says what it can
        return _run_probe(path)
    key = (os.path.abspath(os.fspath(path)), stat.st_mtime_ns, stat.st_size)
    last = _last_probe  # one read: file jobs and folder scans probe from different threads
    if last is not None and last[0] == key:
        return last[1]
    info = _run_probe(path)
    _last_probe = (key, info)
    return info


def _run_probe(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """ffprobe's view of the first audio track (`streams`: [] when there is none) and the
    container (`format`); None when FFmpeg cannot open the file as media."""
    command = [
        _tool("ffprobe", path),
        "-v",
        "error",
        "-select_streams",
        "a:0",
        "-show_entries",
        "stream=duration:format=duration",
        "-of",
        "json",
        *_input_args(path),
    ]
    result = subprocess.run(
        command,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=system_program_env(),
        timeout=PROBE_TIMEOUT_S,
        check=False,
    )
    if result.returncode != 0:
        errors = result.stderr.decode("utf-8", "replace")
        _log.debug("ffprobe could not open %s: %s", os.fspath(path), errors)
        _raise_if_cannot_run(path, errors)
        return None
    info: dict[str, Any] = json.loads(result.stdout or b"{}")
    return info


def probe_duration(path: str | os.PathLike[str]) -> float | None:
    """The first audio track's duration in seconds (ffprobe, from metadata); None if unknown."""
    if is_raw_pcm(path):
        return os.path.getsize(path) / (2 * 16_000)  # s16le mono 16 kHz: exact
    if shutil.which("ffprobe") is None:
        return wav_fallback.duration(path)  # a PCM WAV's header; None for anything else
    try:
        info = _probe(path)
    except (AudioDecodeError, OSError, subprocess.TimeoutExpired, ValueError):
        _log.debug("no duration for %s", os.fspath(path), exc_info=True)
        return None
    if not info or not info.get("streams"):
        return None
    for where in (info["streams"][0], info.get("format", {})):
        try:
            return float(where["duration"])
        except (KeyError, TypeError, ValueError):
            continue
    return None


def decode_blocks(
    path: str | os.PathLike[str], sample_rate: int, trailing: TrailingAudio | None = None
) -> Generator[Samples, None, None]:
    """Yield mono float32 blocks (one second or less each) of the first audio track at `sample_rate`.
    Without ffmpeg on PATH, an integer PCM WAV is read by `wav_fallback`; anything else raises
    the "install ffmpeg" `AudioDecodeError`. With `trailing` (wav_length.py) a WAV is read to the
    end of the file, past its header's length."""
    if shutil.which("ffmpeg") is None and wav_fallback.readable(path):
        yield from wav_fallback.decode_blocks(path, sample_rate, trailing)
        return
    ffmpeg = _tool("ffmpeg", path)
    if not is_raw_pcm(path):
        info = _probe(path)
        if info is None:
            raise AudioDecodeError(path, not_media_reason(path))
        if not info.get("streams"):
            raise AudioDecodeError(path, NO_AUDIO_TRACK_REASON)
    command = _decode_command(ffmpeg, path, sample_rate, whole_file=trailing is not None)
    with tempfile.TemporaryFile() as errors:  # a file, not a pipe: ffmpeg never blocks on its stderr
        with subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors, env=system_program_env()
        ) as process:
            assert process.stdout is not None
            try:
                n_samples = yield from _read_blocks(process.stdout)
                process.wait()
            finally:
                if process.poll() is None:  # the caller stopped early (cancel): stop decoding now
                    process.kill()
        errors.seek(0)
        problems = errors.read().decode("utf-8", "replace").strip()
    _check_outcome(path, n_samples / sample_rate, process.returncode, problems)


def _decode_command(ffmpeg: str, path: str | os.PathLike[str], sample_rate: int, whole_file: bool) -> list[str]:
    """ffmpeg's arguments: the first audio track as mono f32le at `sample_rate` on stdout."""
    # -rematrix_maxval 1.0: libswresample's normalised mix (the mean), as the PyAV backend asks for
    return [
        ffmpeg,
        "-nostdin",
        "-hide_banner",
        "-loglevel",
        "error",
        *(["-ignore_length", "1"] if whole_file else []),
        *_input_args(path),
        "-map",
        "0:a:0",
        "-ac",
        "1",
        "-ar",
        str(sample_rate),
        "-rematrix_maxval",
        "1.0",
        "-f",
        "f32le",
        "pipe:1",
    ]


def _read_blocks(stdout: IO[bytes]) -> Generator[Samples, None, int]:
    """Yield float32 blocks from ffmpeg's f32le output until it ends; returns the sample count."""
    n_samples = 0
    pending = b""
    while data := stdout.read(BLOCK_BYTES):
        data = pending + data
        usable = len(data) - len(data) % 4
        pending = data[usable:]
        if usable:
            block = finite(np.frombuffer(data[:usable], dtype="<f4").astype(np.float32))
            n_samples += block.size
            yield block
    return n_samples


def _raise_if_cannot_run(path: str | os.PathLike[str], errors: str) -> None:
    """A loader error (a library missing or broken) is the installation's fault, not the file's."""
    for line in errors.splitlines():
        if "error while loading shared libraries" in line:
            raise AudioDecodeError(path, f"FFmpeg is installed but cannot run ({line.strip()}): reinstall ffmpeg")


def _check_outcome(path: str | os.PathLike[str], decoded_s: float, returncode: int, problems: str) -> None:
    """Raise when nothing decoded; log a warning when ffmpeg reported errors but gave audio."""
    damaged = returncode != 0 or bool(problems)
    _raise_if_cannot_run(path, problems)
    if decoded_s == 0:
        if problems:
            _log.info("ffmpeg on %s (exit %d): %s", os.fspath(path), returncode, problems)
        raise AudioDecodeError(path, no_samples_reason(damaged))
    if damaged:
        _log.warning(
            "%s is damaged: decoded %.2f s; ffmpeg exit %d, last error: %s",
            display_name(os.fspath(path)),
            decoded_s,
            returncode,
            problems.splitlines()[-1] if problems else "none",
        )

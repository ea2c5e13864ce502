"""Fuzzing the file decoder: damaged WAV, float WAV, FLAC and MP3 files (mutated headers, header
fields, sample values, truncation, random bytes) must each give audio or an `AudioDecodeError`,
never another exception and never a hang; a few of them through the CLI must give text or one
error line, never a traceback.

Seeded (`SEED`), so a failure names a case that can be replayed; about 200 one-second files,
a few seconds in all. A hang aborts the whole run with every thread's stack (faulthandler).
"""

from __future__ import annotations

import faulthandler
import os
import struct
import subprocess
import sys
from collections.abc import Callable, Iterator

import numpy as np
import pytest
from earshot_testing import REPO_ROOT
from media_fixtures import ENCODINGS, RATE, write_audio

from app.audio.file_decoder import AudioDecodeError, decode_audio

SEED = 20261201
CASES_PER_KIND = 6
HANG_LIMIT_S = 120

Mutation = Callable[[np.random.Generator, bytes], bytes]


def _float_wav(samples: np.ndarray) -> bytes:
    """A WAVE_FORMAT_IEEE_FLOAT mono 16 kHz file: where NaN and infinity can be stored."""
    data = samples.astype("<f4").tobytes()
    fmt = struct.pack("<HHIIHH", 3, 1, RATE, RATE * 4, 4, 32)
    return (b"RIFF" + struct.pack("<I", 4 + 8 + len(fmt) + 8 + len(data)) + b"WAVE"
            + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(data)) + data)


@pytest.fixture(scope="module")
def originals(tmp_path_factory: pytest.TempPathFactory, source_clip: np.ndarray) -> dict[str, bytes]:
    """One second of the reference clip as each container, by file suffix."""
    folder = tmp_path_factory.mktemp("fuzz-originals")
    second = source_clip[RATE : 2 * RATE]
    made = {".float.wav": _float_wav(second)}
    for suffix, name in ((".wav", "wav_44k"), (".flac", "flac"), (".mp3", "mp3")):
        made[suffix] = write_audio(folder / f"clip{suffix}", second, ENCODINGS[name]).read_bytes()
    return made


def flip_header_bytes(rng: np.random.Generator, data: bytes) -> bytes:
    out = bytearray(data)
    for i in rng.integers(0, min(64, len(out)), rng.integers(1, 8)):
        out[i] = int(rng.integers(0, 256))
    return bytes(out)


def overwrite_header_field(rng: np.random.Generator, data: bytes) -> bytes:
    """A 16- or 32-bit field in the first 48 bytes (sizes, rate, channels, bits) set to an
    extreme: 0, 1, all ones, or random."""
    out = bytearray(data)
    width = int(rng.choice([2, 4]))
    at = int(rng.integers(4, 48 - width))
    value = int(rng.choice([0, 1, 2 ** (8 * width) - 1, int(rng.integers(0, 2 ** (8 * width) - 1))]))
    out[at : at + width] = value.to_bytes(width, "little")
    return bytes(out)


def flip_body_bytes(rng: np.random.Generator, data: bytes) -> bytes:
    out = bytearray(data)
    for i in rng.integers(0, len(out), rng.integers(1, 200)):
        out[i] ^= int(rng.integers(1, 256))
    return bytes(out)


def truncate(rng: np.random.Generator, data: bytes) -> bytes:
    return data[: int(rng.integers(1, len(data)))]


def extreme_samples(rng: np.random.Generator, data: bytes) -> bytes:
    """Runs of extreme sample bytes after the header: 0x7fff/0x8000 for PCM, and for float WAV
    NaN, +-infinity and 1e30 (any 4-byte pattern is some float)."""
    out = bytearray(data)
    patterns = [struct.pack("<f", v) for v in (float("nan"), float("inf"), -float("inf"), 1e30)]
    patterns += [b"\xff\x7f\xff\x7f", b"\x00\x80\x00\x80"]
    for _ in range(int(rng.integers(1, 20))):
        at = int(rng.integers(48, len(out) - 400)) // 4 * 4
        out[at : at + 400] = patterns[int(rng.integers(0, len(patterns)))] * 100
    return bytes(out)


def random_bytes(rng: np.random.Generator, data: bytes) -> bytes:
    return rng.bytes(int(rng.integers(1, 20_000)))


def header_then_noise(rng: np.random.Generator, data: bytes) -> bytes:
    return data[:64] + rng.bytes(int(rng.integers(0, 40_000)))


MUTATIONS: list[Mutation] = [flip_header_bytes, overwrite_header_field, flip_body_bytes, truncate,
                             extreme_samples, random_bytes, header_then_noise]


def fuzz_cases(originals: dict[str, bytes]) -> Iterator[tuple[str, str, bytes]]:
    """(case id, suffix, bytes), the same sequence on every run."""
    rng = np.random.default_rng(SEED)
    for suffix, data in originals.items():
        for mutation in MUTATIONS:
            for n in range(CASES_PER_KIND):
                yield f"{suffix.lstrip('.')}-{mutation.__name__}-{n}", suffix, mutation(rng, data)


@pytest.fixture()
def hang_guard() -> Iterator[None]:
    faulthandler.dump_traceback_later(HANG_LIMIT_S, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()


def test_every_damaged_file_decodes_or_raises_audio_decode_error(originals, tmp_path, hang_guard):
    unexpected: list[str] = []
    outcomes = {"audio": 0, "error": 0}
    for case, suffix, data in fuzz_cases(originals):
        path = tmp_path / f"{case}{suffix}"
        path.write_bytes(data)
        try:
            audio = decode_audio(path)
        except AudioDecodeError as error:
            assert "\n" not in str(error) and path.name in str(error)
            outcomes["error"] += 1
        except Exception as error:  # the finding this test exists for
            unexpected.append(f"{case}: {type(error).__name__}: {error}")
        else:
            assert audio.dtype == np.float32 and audio.ndim == 1 and audio.size > 0, case
            assert np.isfinite(audio).all(), f"{case}: NaN or infinite samples reach the engine"
            outcomes["audio"] += 1
        path.unlink()
    assert not unexpected, unexpected
    assert outcomes["audio"] > 20 and outcomes["error"] > 20, outcomes  # both paths were exercised


def test_damaged_files_through_the_cli_give_text_or_one_error_line(originals, tmp_path):
    """A dozen of the cases, one CLI run: no traceback, one error line per unreadable file."""
    paths = []
    for i, (case, suffix, data) in enumerate(fuzz_cases(originals)):
        if i % 17 == 0:
            paths.append(tmp_path / f"{case}{suffix}")
            paths[-1].write_bytes(data)
    result = subprocess.run([sys.executable, "-m", "app", "transcribe", *map(str, paths), "--beam-size", "1"],
                            capture_output=True, text=True, cwd=REPO_ROOT, timeout=600,
                            env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    assert result.returncode in (0, 1) and "Traceback" not in result.stderr, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("earshot: error:")]
    assert all(sum(p.name in line for p in paths) == 1 for line in errors), errors
    assert len(errors) < len(paths), result.stderr  # some damaged files still had audio

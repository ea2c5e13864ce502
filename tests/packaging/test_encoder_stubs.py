"""The encoder stubs (packaging/encoder_stubs.py) on a copy of the real PyAV wheel's FFmpeg: they
are tiny, define everything libavcodec takes from the encoders, and libavcodec still loads,
registers every codec (its static init asks the stubbed libraries for their capabilities) and
finds the audio decoders Earshot uses."""

from __future__ import annotations

import ctypes
import shutil
import subprocess
import sys
from pathlib import Path

import av
import pytest
from earshot_testing import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "packaging"))
from build_linux import _elf_files
from encoder_stubs import ENCODER_LIBRARIES, stub_encoders

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF stubs are built on Linux")
AV_LIBS = Path(av.__file__).resolve().parent.parent / "av.libs"


@pytest.fixture(scope="module")
def stubbed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    bundle = tmp_path_factory.mktemp("bundle")
    shutil.copytree(AV_LIBS, bundle / "av.libs")
    assert stub_encoders(bundle, _elf_files(bundle)) > 25_000_000  # x265 alone is 20 MB
    return bundle / "av.libs"


def _symbols(path: Path, *flags: str) -> set[str]:
    out = subprocess.run(["nm", "-D", *flags, str(path)], check=True, capture_output=True, text=True).stdout
    return {line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip()}


def test_each_stub_is_small_and_defines_what_libavcodec_imports(stubbed: Path) -> None:
    codec = next(stubbed.glob("libavcodec-*"))
    imported = _symbols(codec, "--undefined-only")
    for prefix in ENCODER_LIBRARIES:
        stub, original = next(stubbed.glob(f"{prefix}*")), next(AV_LIBS.glob(f"{prefix}*"))
        assert stub.stat().st_size < 64_000
        wanted = imported & _symbols(original, "--defined-only")
        assert wanted and wanted <= _symbols(stub, "--defined-only"), prefix


def test_stubbed_libavcodec_registers_every_codec_and_finds_the_audio_decoders(stubbed: Path) -> None:
    lib = ctypes.CDLL(str(next(stubbed.glob("libavcodec-*"))))
    lib.av_codec_iterate.restype = ctypes.c_void_p
    lib.av_codec_iterate.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
    state, count = ctypes.c_void_p(None), 0
    while lib.av_codec_iterate(ctypes.byref(state)):  # runs every codec's static init
        count += 1
    assert count > 300
    lib.avcodec_find_decoder_by_name.restype = ctypes.c_void_p
    for name in (b"mp3float", b"aac", b"opus", b"vorbis", b"flac", b"pcm_s16le"):
        assert lib.avcodec_find_decoder_by_name(name), name

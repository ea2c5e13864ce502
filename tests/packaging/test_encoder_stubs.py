"""The encoder stubs (packaging/encoder_stubs.py) on a copy of the real PyAV wheel and its FFmpeg:
they are tiny, define everything FFmpeg takes from the stubbed libraries (with the symbol versions
it was linked against), libavcodec still loads, registers every codec (its static init asks the
stubbed libraries for their capabilities) and finds the audio decoders Earshot uses, and the copied
PyAV decodes MP3, Ogg Opus and FLAC files through the stubbed FFmpeg."""

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
from build_linux import elf_files_under
from encoder_stubs import STUBBED_LIBRARIES, stub_encoders

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF stubs are built on Linux")
AV_PACKAGE = Path(av.__file__).resolve().parent
AV_LIBS = AV_PACKAGE.parent / "av.libs"


@pytest.fixture(scope="module")
def stubbed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    bundle = tmp_path_factory.mktemp("bundle")
    shutil.copytree(AV_LIBS, bundle / "av.libs")
    shutil.copytree(AV_PACKAGE, bundle / "av")
    assert stub_encoders(bundle, elf_files_under(bundle)) > 38_000_000  # x265 alone is 20 MB, gnutls 2.4
    return bundle / "av.libs"


def _symbols(path: Path, *flags: str) -> set[str]:
    out = subprocess.run(["nm", "-D", *flags, str(path)], check=True, capture_output=True, text=True).stdout
    return {line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip()}


def test_each_stub_is_small_and_defines_what_ffmpeg_imports(stubbed: Path) -> None:
    users = [p for p in elf_files_under(stubbed.parent) if not p.name.startswith(STUBBED_LIBRARIES)]
    imported = set().union(*(_symbols(p, "--undefined-only") for p in users))
    # Wheels differ in what they link as a separate library (some build LAME into libavcodec).
    present = [prefix for prefix in STUBBED_LIBRARIES if any(AV_LIBS.glob(f"{prefix}*"))]
    assert len(present) >= 10, present
    found = []
    for prefix in present:
        stub, original = next(stubbed.glob(f"{prefix}*")), next(AV_LIBS.glob(f"{prefix}*"))
        assert stub.stat().st_size < 64_000
        wanted = imported & _symbols(original, "--defined-only")
        # (empty for libraries only other stubbed ones used: libsharpyuv by libwebp, hogweed by gnutls)
        assert wanted <= _symbols(stub, "--defined-only"), prefix
        found.append(bool(wanted))
    assert sum(found) >= 8  # what FFmpeg itself links: the encoders, lame, webp, dav1d, vpl, gnutls...


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


def test_pyav_decodes_audio_files_through_the_stubbed_ffmpeg(stubbed: Path, tmp_path: Path) -> None:
    """A new process imports the stubbed copy of PyAV (ld.so checks every symbol version the
    libraries ask the stubs for) and decodes MP3, Ogg Opus and FLAC written by the real wheel."""
    import numpy as np

    tone = (0.3 * np.sin(2 * np.pi * 440 * np.arange(48_000) / 48_000)).astype(np.float32)
    for suffix, codec in ((".mp3", "libmp3lame"), (".ogg", "libopus"), (".flac", "flac")):
        with av.open(str(tmp_path / f"tone{suffix}"), "w") as out:
            stream = out.add_stream(codec, rate=48_000, layout="mono")
            frame = av.AudioFrame.from_ndarray(tone[None, :], format="flt", layout="mono")
            frame.rate = 48_000
            for packet in [*stream.encode(frame), *stream.encode(None)]:
                out.mux(packet)
    script = (
        "import sys, av\n"
        "assert av.__file__.startswith(sys.argv[1]), av.__file__\n"
        "for path in sys.argv[2:]:\n"
        "    with av.open(path) as f:\n"
        "        print(path[-4:], sum(frame.samples for frame in f.decode(audio=0)))\n"
    )
    files = [str(tmp_path / f"tone{s}") for s in (".mp3", ".ogg", ".flac")]
    result = subprocess.run([sys.executable, "-c", script, str(stubbed.parent), *files], capture_output=True,
                            text=True, cwd=stubbed.parent, env={"PYTHONPATH": str(stubbed.parent)}, timeout=120)
    assert result.returncode == 0, result.stderr
    counts = [int(line.split()[1]) for line in result.stdout.splitlines()]
    assert len(counts) == 3 and all(count >= 40_000 for count in counts), result.stdout  # ~1 s each

"""Linux packages of the one-folder bundle: `earshot-<version>-linux-x86_64.tar.xz` and
`earshot_<version>_amd64.deb` (dpkg-deb; the bundle in /opt/earshot, /usr/bin/earshot, a menu entry)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tarfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
MAINTAINER = "Earshot developers <earshot@users.noreply.github.com>"
# Libraries the bundle links against but must not carry (PyInstaller leaves them out on purpose:
# glibc, the GL/EGL of the user's graphics driver, the display-server client libraries), and the
# Debian package of each. `check_links` fails the build on any other missing library.
SYSTEM_LIBRARIES = {
    "libc.so.6": "libc6", "libm.so.6": "libc6", "libdl.so.2": "libc6", "libpthread.so.0": "libc6",
    "librt.so.1": "libc6", "libresolv.so.2": "libc6", "libutil.so.1": "libc6", "libmvec.so.1": "libc6",
    "ld-linux-x86-64.so.2": "libc6",
    "libGL.so.1": "libgl1", "libEGL.so.1": "libegl1", "libxcb.so.1": "libxcb1",
    "libwayland-client.so.0": "libwayland-client0", "libwayland-cursor.so.0": "libwayland-cursor0",
}
# Only the Wayland platform plugin links these; without them Qt runs on X11 (XWayland), and every
# Wayland desktop has them.
OPTIONAL_PACKAGES = {"libwayland-client0", "libwayland-cursor0"}
# Bundled, but their configuration lives in these packages: fontconfig's /etc/fonts (and, through
# fontconfig-config, a font), ALSA's alsa.conf (libasound2-data), without which no sound device opens.
CONFIG_DEPENDS = ["libfontconfig1", "libx11-6", "libasound2"]
RECOMMENDS = ["pulseaudio | pipewire-pulse", "libasound2-plugins", "xdotool"]
# The bundle has no PyAV on Linux (earshot.spec): app.audio decodes files with the distribution's
# `ffmpeg` command (app/audio/ffmpeg_decoder.py), a package of that name on every Debian and Ubuntu
# release, whatever its FFmpeg version. The .deb depends on it; the .tar.xz's README line names it.
DEB_FFMPEG_DEPENDS = ["ffmpeg"]
DESCRIPTION = """Offline dictation and transcription with Whisper
 Speak and text appears, live and private: Whisper runs on this machine through
 onnxruntime, with no network. Audio and video files are transcribed to TXT, SRT,
 VTT and JSON. The default model (Whisper tiny.en) is included, ready to use."""


def preflight() -> None:
    """Fail early, with the fix, when the build host lacks what the bundle copies from it."""
    import ctypes.util

    problems = [f"{tool} (apt-get install {package})" for tool, package in
                (("dpkg-deb", "dpkg"), ("xz", "xz-utils"), ("strip", "binutils"), ("objdump", "binutils"),
                 ("readelf", "binutils"), ("nm", "binutils"), ("cc", "gcc")) if shutil.which(tool) is None]
    for library, package in (("portaudio", "libportaudio2"), ("xcb-icccm", "libxcb-icccm4"),
                             ("xcb-keysyms", "libxcb-keysyms1"), ("xcb-cursor", "libxcb-cursor0")):
        if ctypes.util.find_library(library) is None:
            problems.append(f"lib{library} (apt-get install {package})")
    if problems:
        raise SystemExit("the build host lacks: " + ", ".join(problems))


def elf_files_under(root: Path) -> list[Path]:
    found = []
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            with path.open("rb") as handle:
                if handle.read(4) == b"\x7fELF":
                    found.append(path)
    return found


def check_links(bundle: Path) -> set[str]:
    """Every library a bundled binary links against must be bundled or a known system library;
    returns the Debian packages of the system libraries used."""
    from prune_bundle import elf_needed

    files = elf_files_under(bundle)
    bundled = {p.name for p in bundle.rglob("*")}
    missing: dict[str, str] = {}
    packages: set[str] = set()
    for path in files:
        for name in elf_needed(str(path)):
            if name in SYSTEM_LIBRARIES:
                packages.add(SYSTEM_LIBRARIES[name])
            elif name not in bundled:
                missing.setdefault(name, str(path.relative_to(bundle)))
    if missing:
        raise RuntimeError(f"bundled binaries link against libraries that are not there: {missing}")
    return packages


def required_glibc(bundle: Path) -> str:
    """The newest GLIBC_x.y symbol version any bundled binary asks for (libc6's minimum)."""
    versions = {(2, 17)}
    for path in elf_files_under(bundle):
        for major, minor in re.findall(rb"GLIBC_(\d+)\.(\d+)", path.read_bytes()):
            versions.add((int(major), int(minor)))
    major, minor = max(versions)
    return f"{major}.{minor}"


def _has_symbols(path: Path) -> bool:
    """Whether the ELF file has a symbol table or DWARF sections that `strip` would remove."""
    sections = subprocess.run(["readelf", "-S", "-W", str(path)], capture_output=True, text=True).stdout
    return " .symtab " in sections or " .debug_" in sections


def strip_symbols(bundle: Path) -> int:
    """Strip the symbol tables and debug sections of the bundled libraries that have them: libpython
    and Python's own extension modules (pyenv builds keep them, most of libpython's size), ICU,
    tokenizers, regex, NumPy's modules; the executable (the bootloader, with the Python modules
    appended) is left as it is. Returns the bytes saved."""
    saved = 0
    if shutil.which("strip") is None:
        return saved
    for path in elf_files_under(bundle / "_internal"):
        if _has_symbols(path):
            before = path.stat().st_size
            subprocess.run(["strip", "--strip-unneeded", str(path)], check=True)
            saved += before - path.stat().st_size
    return saved


def slim(bundle: Path) -> None:
    """Size work on the collected bundle: symbol tables and debug sections, PyAV's video encoders and
    other unused FFmpeg libraries (stubs, where PyAV is bundled), Qt's ICU data (root collation only)."""
    from encoder_stubs import stub_encoders
    from icu_data import slim_icu_data

    saved = stub_encoders(bundle, elf_files_under(bundle))
    print(f"slim: FFmpeg library stubs saved {saved / 1e6:.1f} MB")
    for data in bundle.glob("_internal/PySide6/Qt/lib/libicudata.so.*"):
        if data.is_file() and not data.is_symlink():
            print(f"slim: ICU data ({data.name}) slimmed by {slim_icu_data(data) / 1e6:.1f} MB")
    slim_numpy_blas(bundle)
    slim_host_libraries(bundle)
    # last: the steps above read the libraries' symbols as the wheels ship them
    print(f"slim: symbol tables and debug sections stripped, {strip_symbols(bundle) / 1e6:.1f} MB saved")


def slim_numpy_blas(bundle: Path) -> None:
    """NumPy's OpenBLAS and its Fortran runtime -> a small BLAS of the same name (blas_shim.py)."""
    from blas_shim import replace_openblas

    print(f"slim: NumPy's OpenBLAS replaced, {replace_openblas(bundle, elf_files_under(bundle)) / 1e6:.1f} MB saved")


def slim_host_libraries(bundle: Path) -> None:
    """Berkeley DB (under libjack) and GSSAPI (under Qt Network) -> failing stubs, Kerberos dropped."""
    from host_stubs import stub_host_libraries

    print(f"slim: host library stubs saved {stub_host_libraries(bundle, elf_files_under(bundle)) / 1e6:.1f} MB")


def _root_owned(info: tarfile.TarInfo) -> tarfile.TarInfo:
    info.uid = info.gid = 0
    info.uname = info.gname = "root"
    return info


def make_tarball(bundle: Path, version: str, dist: Path) -> Path:
    """`earshot-<version>/` (the bundle, `./earshot` starts it) as an xz tarball (`tar xf` unpacks
    it with any GNU tar or bsdtar of the last 15 years). xz -9 on all cores: about half gzip -6's
    size here (the docs/packaging.md table)."""
    target = dist / f"earshot-{version}-linux-x86_64.tar.xz"
    with target.open("wb") as out:
        xz = subprocess.Popen(["xz", "-9", "-T0", "-c"], stdin=subprocess.PIPE, stdout=out)
        assert xz.stdin is not None
        with tarfile.open(fileobj=xz.stdin, mode="w|") as tar:
            tar.add(bundle, arcname=f"earshot-{version}", filter=_root_owned)
        xz.stdin.close()
        if xz.wait() != 0:
            raise RuntimeError(f"xz failed ({xz.returncode}) writing {target}")
    return target


def _installed_size_kib(root: Path) -> int:
    return sum(-(-p.lstat().st_size // 1024) for p in root.rglob("*") if not p.is_dir())


def _link_tree(src: Path, dst: Path) -> None:
    """Copy `src` to `dst` with hard links where the file system allows (fast, no extra space)."""
    def link(a: str, b: str) -> None:
        try:
            os.link(a, b)
        except OSError:
            shutil.copy2(a, b)

    shutil.copytree(src, dst, symlinks=True, copy_function=link)


def _control(version: str, root: Path, glibc: str, system_packages: set[str]) -> str:
    depends = [f"libc6 (>= {glibc})", *sorted(system_packages - {"libc6"} - OPTIONAL_PACKAGES), *CONFIG_DEPENDS,
               *DEB_FFMPEG_DEPENDS]
    recommends = [*RECOMMENDS, *sorted(system_packages & OPTIONAL_PACKAGES)]
    fields = {
        "Package": "earshot",
        "Version": version,
        "Architecture": "amd64",
        "Maintainer": MAINTAINER,
        "Installed-Size": str(_installed_size_kib(root)),
        "Section": "sound",
        "Priority": "optional",
        "Depends": ", ".join(depends),
        "Recommends": ", ".join(recommends),
        "Description": DESCRIPTION,
    }
    return "".join(f"{key}: {value}\n" for key, value in fields.items())


def make_deb(bundle: Path, version: str, dist: Path, work: Path, icon: Path) -> Path:
    """Build the .deb with dpkg-deb, xz -9 (every dpkg reads it; smaller than zstd -9, see docs/packaging.md,
    at the cost of minutes of compression on two cores)."""
    root = work / f"earshot_{version}_amd64"
    shutil.rmtree(root, ignore_errors=True)
    _link_tree(bundle, root / "opt" / "earshot")
    (root / "usr" / "bin").mkdir(parents=True)
    (root / "usr" / "bin" / "earshot").symlink_to("/opt/earshot/earshot")
    for src, dst in ((HERE / "linux" / "earshot.desktop", "usr/share/applications/earshot.desktop"),
                     (icon, "usr/share/icons/hicolor/scalable/apps/earshot.svg"),
                     (HERE / "linux" / "copyright", "usr/share/doc/earshot/copyright")):
        (root / dst).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, root / dst)
        (root / dst).chmod(0o644)
    (root / "DEBIAN").mkdir()
    tree = root / "opt" / "earshot"
    control = _control(version, root, required_glibc(tree), check_links(tree))
    (root / "DEBIAN" / "control").write_text(control, encoding="utf-8")
    target = dist / f"earshot_{version}_amd64.deb"
    subprocess.run(["dpkg-deb", "--root-owner-group", "-Zxz", "-z9", "--build",
                    str(root), str(target)], check=True, stdout=subprocess.DEVNULL)
    shutil.rmtree(root)
    return target

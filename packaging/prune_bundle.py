"""Keep the bundle lean: drop Qt plugins and translations Earshot never loads, then the shared
libraries only those plugins needed (PyInstaller collected them as the plugins' dependencies).

Used by earshot.spec on PyInstaller's TOC entries `(dest_name, source_path, typecode)`. A library is
dropped only when a dropped plugin needs it (DT_NEEDED) and no kept binary needs it, directly or
through others, so libraries loaded with dlopen/ctypes (PortAudio, onnxruntime's providers) stay.
build_linux.check_links then proves every kept binary still finds what it links against.
"""

from __future__ import annotations

import posixpath
import struct
from pathlib import Path

Entry = tuple[str, str, str]

# Plugins never loaded: embedded-Linux platforms, VNC, evdev/tuio input, the Qt Quick virtual keyboard,
# TLS and network information (no network), the GTK3 theme (it drags in half of GTK, cairo and pango,
# which then clash with the desktop's own), Wayland's OpenGL buffer integrations (a widgets app draws
# into shared memory), image formats the app does not read.
UNUSED_PLUGINS = (
    "platforms/libqvnc", "platforms/libqlinuxfb", "platforms/libqeglfs", "platforms/libqvkkhrdisplay",
    "platforms/libqminimalegl", "egldeviceintegrations/", "generic/", "tls/", "networkinformation/",
    "platforminputcontexts/libqtvirtualkeyboardplugin", "platformthemes/libqgtk3",
    "wayland-graphics-integration-client/", "wayland-graphics-integration-server/",
    "imageformats/libqtiff", "imageformats/libqwebp", "imageformats/libqicns", "imageformats/libqpdf",
)
# libmvec: part of glibc, which must come from the user's system (with libc itself), never the bundle.
# (libQt6Network stays: the single-instance control channel, `earshot toggle`, uses QLocalServer.)
UNUSED_LIBRARIES = ("libmvec.so",)


def is_unused(dest: str) -> bool:
    dest = dest.replace("\\", "/")
    name = dest.rsplit("/", 1)[-1]
    return (("/translations/" in dest and dest.endswith(".qm"))  # the UI is English; so are Qt's own strings
            or any(f"/plugins/{p}" in dest for p in UNUSED_PLUGINS)
            or name.startswith(UNUSED_LIBRARIES))


def elf_needed(path: str) -> list[str]:
    """DT_NEEDED names of a 64-bit little-endian ELF file; [] for anything else."""
    try:
        data = Path(path).read_bytes()
    except OSError:
        return []
    if data[:6] != b"\x7fELF\x02\x01":
        return []
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names: list[str] = []
    for _name, sh_type, _flags, _addr, offset, size, link, _info, _align, _entsize in sections:
        if sh_type != 6:  # SHT_DYNAMIC
            continue
        strtab_offset = sections[link][4]
        for pos in range(offset, offset + size, 16):
            tag, value = struct.unpack_from("<qQ", data, pos)
            if tag == 0:
                break
            if tag == 1:  # DT_NEEDED
                end = data.index(b"\0", strtab_offset + value)
                names.append(data[strtab_offset + value:end].decode())
    return names


def prune(binaries: list[Entry]) -> tuple[list[Entry], list[str]]:
    """`binaries` without unused plugins and their orphaned libraries; also the dropped names."""
    real = [e for e in binaries if e[2] != "SYMLINK"]
    needs = {e[0]: set(elf_needed(e[1])) for e in real}
    by_name: dict[str, list[str]] = {}
    for dest in needs:
        by_name.setdefault(dest.replace("\\", "/").rsplit("/", 1)[-1], []).append(dest)
    dropped = {dest for dest in needs if is_unused(dest)}
    needed_anywhere = set().union(*needs.values()) if needs else set()
    roots = [d for d in needs if d not in dropped and d.rsplit("/", 1)[-1] not in needed_anywhere]
    reachable, stack = set(roots), list(roots)
    while stack:
        for name in needs[stack.pop()]:
            for dest in by_name.get(name, []):
                if dest not in reachable and dest not in dropped:
                    reachable.add(dest)
                    stack.append(dest)
    removed = {d for d in needs if d not in reachable}

    def dangling(entry: Entry) -> bool:
        target = entry[1].replace("\\", "/")
        beside = posixpath.normpath(posixpath.join(posixpath.dirname(entry[0].replace("\\", "/")), target))
        return target in removed or beside in removed

    kept = [e for e in binaries if e[0] not in removed and not (e[2] == "SYMLINK" and dangling(e))]
    return kept, sorted(removed)

"""Shrink Qt's ICU data library (libicudata.so.73, one of the bundle's largest) to the parts Qt can use here.

libicudata holds one ICU "common data" package (the `icudt<N>_dat` symbol): locale names, currency,
unit, region and time-zone display strings, break-iteration rules, transliterators, 230 legacy
character-set tables. Qt 6 calls ICU only for locale case mapping (its tables are compiled into
libicuuc, not this data), collation (QCollator: the file dialog's sort), time-zone display names
and non-UTF text codecs; Earshot reads and writes UTF-8 and shows no time-zone names. The package
is rewritten with only the root collation (`KEPT`), and the library rebuilt around it; when ICU
cannot find something else (a locale's tailoring, a zone name, a codec), the ICU call fails and Qt
falls back as it does on a system without that data (QCollator to Qt's own comparison).

Package layout (ICU's udata/ucmndata "CmnD"): a header of `headerSize` bytes, then a uint32 entry
count, `count` pairs (name offset, data offset) relative to the end of the header, the
NUL-terminated names, and the items; the table is sorted by name (ICU looks names up by bisection).
"""

from __future__ import annotations

import struct
import subprocess
import tempfile
from pathlib import Path

# Items kept, by their name inside the package without the "icudt73l/" prefix: the root collation
# (CLDR's default order for every language without its own tailoring) and what it is looked up
# through, and the converter alias table (so "ISO-8859-1", "US-ASCII" still name ICU's built-in
# algorithmic converters).
KEPT = ("coll/root.res", "coll/ucadata.icu", "coll/res_index.res", "coll/en.res", "coll/en_US.res",
        "cnvalias.icu", "res_index.res", "root.res", "pool.res", "icuver.res", "icustd.res")
DATA_SYMBOL_PREFIX = "icudt"


def _header_size(package: bytes) -> int:
    size, magic1, magic2 = struct.unpack_from("<HBB", package, 0)
    if (magic1, magic2) != (0xDA, 0x27) or package[12:16] != b"CmnD":
        raise ValueError("not an ICU common data package (CmnD)")
    return int(size)


def read_items(package: bytes) -> dict[str, bytes]:
    """Name -> item bytes of an ICU common data package (names with their "icudtNNl/" prefix)."""
    header = _header_size(package)
    count, = struct.unpack_from("<I", package, header)
    table = [struct.unpack_from("<II", package, header + 4 + 8 * i) for i in range(count)]
    items: dict[str, bytes] = {}
    for index, (name_offset, data_offset) in enumerate(table):
        start = header + name_offset
        name = package[start:package.index(b"\0", start)].decode("ascii")
        end = header + table[index + 1][1] if index + 1 < count else len(package)
        items[name] = package[header + data_offset:end]
    return items


def write_package(header: bytes, items: dict[str, bytes]) -> bytes:
    """A common data package with `header` (the original's) and `items`, sorted by name, 16-aligned."""
    names = sorted(items)
    table_size = 4 + 8 * len(names)
    name_blob = b"".join(n.encode("ascii") + b"\0" for n in names)
    name_offsets, pos = [], table_size
    for name in names:
        name_offsets.append(pos)
        pos += len(name) + 1
    pos += -(len(header) + pos) % 16
    data, data_offsets = bytearray(), []
    for name in names:
        data_offsets.append(pos + len(data))
        data += items[name]
        data += b"\0" * (-(len(header) + pos + len(data)) % 16)
    table = struct.pack("<I", len(names)) + b"".join(
        struct.pack("<II", n, d) for n, d in zip(name_offsets, data_offsets, strict=True))
    padding = b"\0" * (data_offsets[0] - table_size - len(name_blob)) if names else b""
    return header + table + name_blob + padding + bytes(data)


def subset(package: bytes, kept: tuple[str, ...] = KEPT) -> bytes:
    header = package[:_header_size(package)]
    items = read_items(package)
    prefix = next(iter(items)).split("/", 1)[0] + "/"
    return write_package(header, {n: b for n, b in items.items() if n.removeprefix(prefix) in kept})


def _data_symbol(library: Path) -> tuple[str, int]:
    """The data symbol's name and file offset (its section is mapped at offset == address)."""
    out = subprocess.run(["nm", "-D", "--defined-only", str(library)], check=True, capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        address, _kind, name = line.split()
        if name.startswith(DATA_SYMBOL_PREFIX) and name.endswith("_dat"):
            return name, int(address, 16)
    raise ValueError(f"{library} defines no ICU data symbol")


def slim_icu_data(library: Path) -> int:
    """Rebuild `library` (libicudata.so.N) with the `KEPT` items only; returns the bytes saved."""
    symbol, offset = _data_symbol(library)
    package = subset(library.read_bytes()[offset:])
    before = library.stat().st_size
    with tempfile.TemporaryDirectory() as tmp:
        blob, source, built = Path(tmp) / "data.bin", Path(tmp) / "data.S", Path(tmp) / library.name
        blob.write_bytes(package)
        # The package as a read-only, 16-aligned global, as ICU's own genccode emits it.
        source.write_text(f'.section .rodata\n.globl {symbol}\n.type {symbol},@object\n.balign 16\n'
                          f'{symbol}:\n.incbin "{blob}"\n.size {symbol}, .-{symbol}\n'
                          '.section .note.GNU-stack,"",@progbits\n', encoding="ascii")
        subprocess.run(["cc", "-shared", "-nostdlib", "-s", f"-Wl,-soname,{library.name}", "-o", str(built),
                        str(source)], check=True)
        library.unlink()
        built.replace(library)
    return before - library.stat().st_size

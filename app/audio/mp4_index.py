"""Whether a file FFmpeg cannot open is an MP4/MOV recording that was never finished.

An MP4 (or MOV, M4A, 3GP) recorder writes the audio and video as it goes, in an 'mdat' box, and
the index that says where each frame lies (the 'moov' box) only when the recording stops. A
recorder that crashed, lost power or filled the disk leaves a file with its media and without
that index: no player or decoder can read it, though the sound is there. Telling the user so
beats "unknown format or damaged": their file is not garbage, and a repair tool can rebuild it.
"""

from __future__ import annotations

import os
import struct
from typing import BinaryIO

UNFINISHED_MP4_REASON = (
    "an unfinished MP4/MOV recording: it lacks the index ('moov' box) a recorder writes when it stops; "
    "a repair tool such as untrunc can rebuild it from a finished file of the same recorder"
)

_FIRST_BOXES = frozenset({b"ftyp", b"wide", b"free", b"skip", b"mdat", b"pnot", b"uuid"})
"""Box types an ISO media file or a QuickTime movie may open with."""

_MAX_BOXES = 64


def top_level_boxes(path: str | os.PathLike[str]) -> list[bytes]:
    """The types of the file's top-level boxes in order, up to the first one that runs past the
    end of the file (included) or that is not a box at all (excluded); [] when unreadable."""
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            return _walk(handle, size)
    except OSError:
        return []


def _walk(stream: BinaryIO, file_size: int) -> list[bytes]:
    types: list[bytes] = []
    at = 0
    while at + 8 <= file_size and len(types) < _MAX_BOXES:
        stream.seek(at)
        header = stream.read(16)
        box_size, kind = struct.unpack(">I4s", header[:8])
        if not all(32 <= c < 127 for c in kind):
            break
        types.append(kind)
        if box_size == 1 and len(header) == 16:
            box_size = struct.unpack(">Q", header[8:16])[0]
        elif box_size == 0:  # the box runs to the end of the file
            break
        if box_size < 8 or at + box_size > file_size:
            break
        at += box_size
    return types


def is_unfinished_mp4(path: str | os.PathLike[str]) -> bool:
    """True for an ISO media / QuickTime file with media data ('mdat') and no index ('moov',
    nor the fragments' 'moof' that make an index unnecessary)."""
    types = top_level_boxes(path)
    if not types or types[0] not in _FIRST_BOXES:
        return False
    return b"mdat" in types and b"moov" not in types and b"moof" not in types

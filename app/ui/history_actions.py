"""Exporting a history entry again (the review view, `app.ui.review_view`, edits it).

Exports reuse the writers of the `transcribe` command (`app.engine.export.formats`): TXT and JSON for
any entry; SRT and VTT with the times the entry kept (a file's segments, a dictation's
utterances). An entry whose text the user edited no longer matches its times, so it is exported
as one untimed piece (TXT, JSON) and SRT/VTT say why they are unavailable.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import (
    QFileDialog,
    QWidget,
)

from app.engine.export.formats import FORMATS, TranscriptMeta, write_transcript
from app.engine.types import Segment, Timings
from app.history.store import HistoryEntry

log = logging.getLogger(__name__)

AskPath = Callable[[QWidget, str, str], Path | None]  # parent, suggested file name, format -> target
TIMED_FORMATS = ("srt", "vtt")


def export_formats(entry: HistoryEntry) -> list[tuple[str, str | None]]:
    """(format, why it is unavailable or None) for each export format."""
    why = (
        None
        if entry.timed
        else (
            "the text was edited after it was transcribed, so its times no longer fit"
            if entry.segments
            else "this entry has no times"
        )
    )
    return [(fmt, why if fmt in TIMED_FORMATS else None) for fmt in FORMATS]


def export_entry(entry: HistoryEntry, fmt: str, target: Path) -> Path:
    """Write `entry` as `fmt` to `target` (its suffix is replaced by `.fmt`); raises ExportError."""
    if entry.timed:
        segments = [Segment(i, s.start, s.end, " " + s.text.strip()) for i, s in enumerate(entry.pieces)]
    elif fmt in TIMED_FORMATS:
        raise ValueError(f"{fmt.upper()} needs times: {export_formats(entry)[1][1]}")
    else:
        segments = [Segment(0, 0.0, 0.0, entry.text)]
    meta = TranscriptMeta(
        file=entry.source or entry.name,
        model="",
        precision="",
        language="",
        language_probability=1.0,
        duration_s=max((s.end for s in segments), default=0.0),
        timings=Timings(),
    )
    stem = target.name.removesuffix(f".{fmt}")
    return write_transcript(fmt, segments, meta, target.parent, stem, mode=0o600)


def ask_export_path(parent: QWidget, suggested: str, fmt: str) -> Path | None:
    path, _ = QFileDialog.getSaveFileName(parent, f"Export as {fmt.upper()}", suggested, f"{fmt.upper()} (*.{fmt})")
    return Path(path) if path else None


def file_stem(entry: HistoryEntry) -> str:
    """A file name for the entry's export, from its name (no characters a file system refuses)."""
    base = entry.name.rstrip("…").strip()
    if entry.title and "." in base:
        base = base.rsplit(".", 1)[0]  # "meeting.wav" -> "meeting"
    cleaned = "".join(ch if ch.isalnum() or ch in " -_" else " " for ch in base)
    return " ".join(cleaned.split()) or "transcript"

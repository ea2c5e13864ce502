"""The transcript files of a watched media file: one per format its watch folder asks for, beside
the media file, or in the folder's output folder mirroring the file's place inside the watch
folder (as `earshot transcribe --output-dir` does for a folder). The exporter writes each one
atomically, so a full disk never leaves a truncated transcript. A name that would pass the
folder's limit (a media file named near it) is shortened, the same way every time
(`app.engine.export.file_names`), and said in one line."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from app.archive.inputs import MEDIA_SUFFIXES
from app.controller.ports import FileTranscript, TranscriptExporter
from app.engine.export.file_names import shortened_line, stems_for
from app.engine.export.formats import ExportError
from app.settings.schema import WatchFolder

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class WrittenFiles:
    """What `write_transcript_files` did: the files written, one user-facing line when any
    format could not be written ("" when all were), and one when their names had to be shortened
    ("" when they are named after the media file)."""

    written: list[Path]
    problem: str = ""
    renamed: str = ""


def folder_of(media: Path, folders: Sequence[WatchFolder]) -> WatchFolder | None:
    """The watch folder holding `media`: the innermost one when one watch folder is inside another."""
    holding = [w for w in folders if media.is_relative_to(Path(w.folder))]
    return max(holding, key=lambda w: len(Path(w.folder).parts), default=None)


def transcript_stem(media: Path) -> str:
    """`x.wav` -> `x`; but `x.wav` when another media file beside it has the same stem (`x.mp3`),
    so that neither transcript replaces the other's."""
    try:
        twins = [
            p
            for p in media.parent.iterdir()
            if p != media and p.stem.casefold() == media.stem.casefold() and p.suffix.lower() in MEDIA_SUFFIXES
        ]
    except OSError:
        twins = []  # the folder cannot be listed: writing there will say why
    return media.name if twins else media.stem


def transcript_folder(watch: WatchFolder, media: Path) -> Path:
    """The folder the transcript files of `media` (inside `watch.folder`) go to."""
    if watch.output_dir:
        return Path(watch.output_dir) / media.parent.relative_to(Path(watch.folder))
    return media.parent


def transcript_targets(watch: WatchFolder, media: Path) -> list[Path]:
    """Where the transcript files of `media` (inside `watch.folder`) go, one per format."""
    return _named_targets(watch, media)[1]


def _named_targets(watch: WatchFolder, media: Path) -> tuple[str, list[Path]]:
    """(the line saying the names were shortened, or ""; `transcript_targets`)."""
    folder, stem = transcript_folder(watch, media), transcript_stem(media)
    suffixes = [f".{fmt}" for fmt in watch.formats]
    stems = stems_for(folder, stem, suffixes)
    targets = [folder / f"{name}{suffix}" for name, suffix in zip(stems, suffixes, strict=True)]
    return shortened_line(media.name, stem, stems, suffixes), targets


def transcripts_written_since(watch: WatchFolder, media: Path, changed: float) -> bool:
    """True when every transcript file `watch` asks for exists and was written at or after
    `changed` (the media's modification time, seconds since the epoch): another app watching the
    same shared folder, or this one before its History was cleared, has transcribed it."""
    try:
        return all(target.stat().st_mtime >= changed for target in transcript_targets(watch, media))
    except OSError:
        return False  # one is missing (or cannot be looked at): not written


def write_transcript_files(
    exporter: TranscriptExporter, watch: WatchFolder, transcript: FileTranscript
) -> WrittenFiles:
    """Write each of `watch.formats` for `transcript` (readable subtitle cues for srt and vtt)."""
    written: list[Path] = []
    errors: list[tuple[str, ExportError]] = []
    renamed, targets = _named_targets(watch, transcript.path)
    if renamed:
        log.warning("%s", renamed)
    for target, fmt in zip(targets, watch.formats, strict=True):
        try:
            written.append(exporter.write(fmt, transcript, target))
        except ExportError as error:
            log.exception("the %s transcript of %s was not written", fmt, transcript.path)
            errors.append((fmt, error))
    if not errors:
        return WrittenFiles(written, renamed=renamed)
    others = ", ".join(f".{fmt}" for fmt, _error in errors[1:])
    more = f"; the {others} {'was' if len(errors) == 2 else 'were'} not written either" if others else ""
    kept = "the transcript is in the History only" if not written else "the other files and the History have it"
    problem = f"{transcript.path.name}: {kept}. {errors[0][1]}{more}."
    log.error("%s", problem)
    return WrittenFiles(written, problem, renamed)

"""Where `earshot transcribe` puts its transcripts: files in `--output-dir`, or stdout.

Files: `<output dir>/<stem>.<format>`, written atomically (temporary file + rename, see
`app.engine.export.formats.write_transcript`), so a full disk never leaves a truncated transcript.
Inputs whose stems collide (`a/x.wav` and `b/x.wav`, or `x.wav` and `x.mp3`) get distinct
stems, in the order given: `x`, then `x-2`, `x-3`, ... (said once on stderr). A name that would
pass the output folder's limit (an input named near it: `x.mp3` of 255 bytes gives `x.json` of
256) is shortened (`app.engine.export.file_names`: the same name on every run), said once on
stderr. A transcript that cannot be written where asked (folder unwritable, a file, disk full) is
one line on stderr and is kept: written to a private fallback folder (its path said on stderr),
or, if that fails too, printed on stdout.

Stdout (`--output-dir -`): one document alone is printed as is. Several documents (several
formats, or several files that were transcribed) are each preceded by a header line
`==> FILE [FORMAT] <==` (JSON then on one line). With several files and one format, the first
document is held until a second one comes, so a run where only one file could be read prints it
as is. With several files and `json` alone, the output is JSON Lines instead: one compact JSON
object per line, each with its `file`, no headers, however many files could be read.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from app import user_dirs
from app.engine.export.file_names import fitted_stem, name_max, shortened_line, stems_for
from app.private_files import private_dir

if TYPE_CHECKING:
    from app.engine.export.formats import TranscriptMeta
    from app.engine.export.subtitles import SubtitleOptions
    from app.engine.types import Segment

STDOUT = "-"
FALLBACK_FOLDER = "unsaved-transcripts"
"""Under the user data folder: transcripts that could not be written where asked."""

_log = logging.getLogger(__name__)


def distinct_stems(inputs: Sequence[str]) -> list[str]:
    """One output stem per input, no two equal (compared case-insensitively, as on Windows and
    macOS file systems). The first input with a stem keeps it; later ones get `-2`, `-3`, ...,
    skipping any stem that another input has of its own."""
    natural = [Path(name).stem for name in inputs]
    taken = {stem.casefold() for stem in natural}
    used: set[str] = set()
    stems = []
    for stem in natural:
        chosen, number = stem, 1
        while chosen.casefold() in used:
            number += 1
            chosen = f"{stem}-{number}"
            if chosen.casefold() in taken:
                chosen = stem  # another input's own stem: keep counting
        used.add(chosen.casefold())
        stems.append(chosen)
    return stems


class TranscriptOutput:
    """Writes each transcribed file's documents (one per format) to `output_dir` or stdout."""

    def __init__(
        self,
        output_dir: str,
        formats: Sequence[str],
        inputs: Sequence[str],
        subtitles: SubtitleOptions | None = None,
        stems: Sequence[str] | None = None,
    ) -> None:
        self.subtitles = subtitles  # how SRT/VTT cues are laid out (None: readable cues)
        self.to_stdout = output_dir == STDOUT
        self.output_dir = Path(output_dir)
        self.formats = list(dict.fromkeys(formats)) or ["txt"]
        self.stems = list(stems) if stems is not None else distinct_stems(inputs)  # given: already distinct
        self.json_lines = len(inputs) > 1 and self.formats == ["json"]
        self.headed = len(self.formats) > 1  # several documents per file: always headed
        self.maybe_several = len(inputs) > 1 and not self.json_lines and not self.headed
        self._held: tuple[str, str] | None = None  # (header, text) of the first document
        self._printed = 0
        self.started = time.strftime("%Y%m%d-%H%M%S")  # one stamp for the run's kept copies
        self.file_stems: list[list[str]] = []  # per input, per format: the stem its file has
        if not self.to_stdout:
            self._say_renames(inputs)

    def _say_renames(self, inputs: Sequence[str]) -> None:
        """Fit each input's file names to the output folder (`file_stems`); say once for each
        input whose transcript is not named after it."""
        suffixes = [f".{fmt}" for fmt in self.formats]
        for name, stem in zip(inputs, self.stems, strict=True):
            self.file_stems.append(stems_for(self.output_dir, stem, suffixes))
            if shortened := shortened_line(name, stem, self.file_stems[-1], suffixes):
                print(f"earshot: {shortened}", file=sys.stderr)
            elif stem != Path(name).stem:
                print(
                    f"earshot: {name}: another input has the same name; its transcript is written as {stem}.<format>",
                    file=sys.stderr,
                )

    def file_name(self, index: int, fmt: str) -> str:
        """The name input `index`'s `fmt` file has in the output folder."""
        return f"{self._file_stem(index, fmt)}.{fmt}"

    def _file_stem(self, index: int, fmt: str) -> str:
        return self.file_stems[index][self.formats.index(fmt)]

    def write(self, index: int, segments: list[Segment], meta: TranscriptMeta) -> bool:
        """Write input `index`'s documents; False when any of them could not go where asked."""
        ok = True
        for fmt in self.formats:
            if self.to_stdout:
                self._print(fmt, segments, meta)
            else:
                ok = self._write_file(fmt, segments, meta, index) and ok
        return ok

    def finish(self) -> None:
        """Print a held first document: it was the only one, so it goes out as is."""
        if self._held is not None:
            self._emit(None, self._held[1])
            self._held = None

    def _print(self, fmt: str, segments: list[Segment], meta: TranscriptMeta, note: str = "") -> None:
        from app.engine.export.formats import render

        text = render(fmt, segments, meta, self.subtitles)
        if fmt == "json" and (self.json_lines or self.headed or note):
            text = json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":"))
        header = f"==> {meta.file} [{fmt}]{note} <=="
        if note or self.headed:
            self._emit(header, text)
        elif not self.maybe_several:
            self._emit(None, text)
        elif self._printed == 0 and self._held is None:
            self._held = (header, text)
        else:
            if self._held is not None:
                self._emit(*self._held)
                self._held = None
            self._emit(header, text)

    def _emit(self, header: str | None, text: str) -> None:
        if header is not None:
            sys.stdout.write(header + "\n")
        sys.stdout.write(text.rstrip("\n") + "\n")
        sys.stdout.flush()
        self._printed += 1

    def _write_file(self, fmt: str, segments: list[Segment], meta: TranscriptMeta, index: int) -> bool:
        from app.engine.export.formats import ExportError, write_transcript

        try:
            out = write_transcript(fmt, segments, meta, self.output_dir, self._file_stem(index, fmt), self.subtitles)
        except ExportError as error:
            _log.exception("transcript of %s not written to %s", meta.file, self.output_dir)
            print(f"earshot: error: {error}", file=sys.stderr)
            self._keep(fmt, segments, meta, self.stems[index])
            return False
        print(f"wrote {out}", file=sys.stderr)
        return True

    def _keep(self, fmt: str, segments: list[Segment], meta: TranscriptMeta, stem: str) -> None:
        """Save a transcript that could not be written where asked: fallback folder, else stdout."""
        from app.engine.export.formats import ExportError, write_transcript

        try:
            folder = private_dir(fallback_dir())
            kept_stem = _unused_stem(folder, stem, self.started, fmt)
            out = write_transcript(fmt, segments, meta, folder, kept_stem, self.subtitles, mode=0o600)
        except (ExportError, OSError):
            _log.exception("transcript of %s not written to the fallback folder either", meta.file)
            print("earshot: the transcript is printed below instead", file=sys.stderr)
            self._print(fmt, segments, meta, note=" (not saved)")
            return
        print(f"earshot: the transcript was kept in {out}", file=sys.stderr)


def fallback_dir() -> Path:
    """`<user data folder>/unsaved-transcripts` (private: 0700)."""

    return user_dirs.data_dir() / FALLBACK_FOLDER


def _unused_stem(folder: Path, stem: str, started: str, fmt: str) -> str:
    """`<stem>-<started>`, or that and `-2`, `-3`, ... if it is taken: never overwrite a kept
    transcript. Where the name would pass the folder's limit the stem is shortened, the time kept."""
    limit, number = name_max(folder), 1
    while True:
        tail = f"-{started}" if number == 1 else f"-{started}-{number}"
        candidate = fitted_stem(stem, f"{tail}.{fmt}", limit) + tail
        if not (folder / f"{candidate}.{fmt}").exists():
            return candidate
        number += 1

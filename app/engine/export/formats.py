"""Transcript export: plain text, SubRip (SRT), WebVTT and JSON, written atomically.

All times are seconds from the start of the file (`Segment.start`, `Segment.end`); they are
written rounded to whole milliseconds. Files are UTF-8 with `\\n` line ends.
"""

from __future__ import annotations

import json
import math
import os
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.engine.export.cue_text import one_line, vtt_escape
from app.engine.export.file_names import temporary_name
from app.engine.export.paragraphs import NO_SPACE_LANGUAGES, render_paragraphs
from app.engine.export.subtitles import READABLE, SubtitleOptions, render_frames, render_word_cues
from app.engine.timing.time_clamp import clamp_segments
from app.engine.types import Segment, Timings, TranscriptionInfo

FORMATS = ("txt", "srt", "vtt", "json")
"""Export formats, in the order the user interface lists them (also the file suffixes)."""


class ExportError(Exception):
    """A transcript could not be written. `str(error)` is one line naming the file."""


@dataclass
class TranscriptMeta:
    """What the JSON export says about a transcription besides its segments.

    `file` is the input's path as the user gave it; `language_probability` is in [0, 1];
    `duration_s` is the audio's length in seconds.
    """

    file: str
    model: str
    precision: str
    language: str
    language_probability: float
    duration_s: float
    timings: Timings

    @classmethod
    def of(cls, file: str, model: str, precision: str, info: TranscriptionInfo) -> TranscriptMeta:
        """The meta of the transcription `info` describes (language, its probability, duration, timings)."""
        return cls(file, model, precision, info.language, info.language_probability, info.duration_s, info.timings)


def render(
    fmt: str, segments: Sequence[Segment], meta: TranscriptMeta, subtitles: SubtitleOptions | None = None
) -> str:
    """The transcript as text in `fmt`, one of `FORMATS`. Raises ValueError for others.

    Segments with no text (after stripping) are left out of txt, srt and vtt; srt cues are
    numbered from 1 in the order given; segment and word times are clamped to
    [0, meta.duration_s] (the last window is padded: its timestamps can point past the end).
    srt and vtt cues are laid out as `subtitles` says (None: readable, word-timed cues;
    app/engine/export/subtitles.py), or one per segment with `CueLayout.SEGMENTS`.
    """
    renderer = _RENDERERS.get(fmt)
    if renderer is None:
        raise ValueError(f"unknown transcript format {fmt!r}; expected one of {FORMATS}")
    segments = clamp_segments(segments, meta.duration_s)  # no cue or word past the audio's end
    subtitles = subtitles or READABLE
    if subtitles.word_level and fmt in ("srt", "vtt"):
        return render_word_cues(fmt, segments, subtitles, meta.duration_s)
    return renderer(segments, meta)


def write_transcript(
    fmt: str,
    segments: Sequence[Segment],
    meta: TranscriptMeta,
    output_dir: Path,
    stem: str,
    subtitles: SubtitleOptions | None = None,
    mode: int = 0o666,
) -> Path:
    """Write `<output_dir>/<stem>.<fmt>` and return its path.

    The text goes to a hidden temporary file in `output_dir` (its name fits the folder's limit
    however long `stem` is: `app.engine.export.file_names`) which then replaces the target in
    one step, so readers see the old file or the complete new one, never a partial one. On any
    OSError (full disk, no permission, `output_dir` not a folder) the temporary file is
    removed and `ExportError` is raised; an existing target is left as it was. `mode` is the
    new file's permission bits before the umask (0o600 for a private copy).
    """
    text = render(fmt, segments, meta, subtitles)
    target = output_dir / f"{stem}.{fmt}"
    try:
        output_dir.mkdir(parents=True, exist_ok=True)
        _write_atomically(target, text, mode)
    except OSError as error:
        raise ExportError(f"Cannot write transcript {_quoted(target)}: {_reason(error, output_dir)}") from error
    return target


def _reason(error: OSError, output_dir: Path) -> str:
    if isinstance(error, (FileExistsError, NotADirectoryError)) and not output_dir.is_dir():
        return f"{_quoted(output_dir)} is a file, not a folder"
    return error.strerror or str(error)


def _write_atomically(target: Path, text: str, mode: int) -> None:
    temporary = target.with_name(temporary_name(target, secrets.token_hex(4)))
    # os.open with 0o666 lets the user's umask decide the permissions, as for any new file.
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _render_txt(segments: Sequence[Segment], meta: TranscriptMeta) -> str:
    return render_paragraphs(segments, meta.language)  # sentences, not one line per segment


def _render_srt(segments: Sequence[Segment], meta: TranscriptMeta) -> str:
    return render_frames("srt", _segment_frames(segments, str))


def _render_vtt(segments: Sequence[Segment], meta: TranscriptMeta) -> str:
    return render_frames("vtt", _segment_frames(segments, vtt_escape))


def _segment_frames(segments: Sequence[Segment], escape: Callable[[str], str]) -> list[tuple[float, float, str]]:
    """One (start, end, text) cue per segment with text; an end past the next cue's start is
    brought back to it (players show overlapping cues stacked)."""
    cues = _cues(segments)
    frames = []
    for index, (segment, text) in enumerate(cues):
        end = _end(segment)
        if index + 1 < len(cues):
            end = max(min(end, cues[index + 1][0].start), segment.start)
        frames.append((segment.start, end, escape(text)))
    return frames


def _render_json(segments: Sequence[Segment], meta: TranscriptMeta) -> str:
    timings = meta.timings
    document = {
        "file": meta.file,
        "model": meta.model,
        "precision": meta.precision,
        "language": meta.language,
        "language_probability": _finite(meta.language_probability),
        "duration_s": _finite(round(meta.duration_s, 3)),
        "text": _join(_texts(segments), meta.language),
        "segments": [_segment_json(segment) for segment in segments],
        "timings": {
            "load_s": _finite(timings.load_s),
            "decode_audio_s": _finite(timings.decode_audio_s),
            "features_s": _finite(timings.features_s),
            "encoder_s": _finite(timings.encoder_s),
            "decoder_s": _finite(timings.decoder_s),
            "total_s": _finite(timings.total_s),
            "n_tokens": timings.n_tokens,
        },
    }
    return json.dumps(document, ensure_ascii=False, indent=2, allow_nan=False) + "\n"


def _segment_json(segment: Segment) -> dict[str, Any]:
    entry = _segment_fields(segment)
    if segment.words is not None:
        entry["words"] = [
            {
                "word": w.word,
                "start": _finite(round(w.start, 3)),
                "end": _finite(round(w.end, 3)),
                "probability": _finite(round(w.probability, 3)),
            }
            for w in segment.words
        ]
    return entry


def _segment_fields(segment: Segment) -> dict[str, Any]:
    return {
        "id": segment.id,
        "start": _finite(round(segment.start, 3)),
        "end": _finite(round(_end(segment), 3)),
        "text": one_line(segment.text),
        "tokens": [int(token) for token in segment.tokens],
        "avg_logprob": _finite(segment.avg_logprob),
        "no_speech_prob": _finite(segment.no_speech_prob),
        "temperature": _finite(segment.temperature),
    }


_RENDERERS: dict[str, Callable[[Sequence[Segment], TranscriptMeta], str]] = {
    "txt": _render_txt,
    "srt": _render_srt,
    "vtt": _render_vtt,
    "json": _render_json,
}


def _texts(segments: Sequence[Segment]) -> list[str]:
    return [text for text in (one_line(s.text) for s in segments) if text]


def _cues(segments: Sequence[Segment]) -> list[tuple[Segment, str]]:
    return [(s, text) for s in segments if (text := one_line(s.text))]


def _join(texts: list[str], language: str) -> str:
    separator = "" if language in NO_SPACE_LANGUAGES else " "
    return separator.join(texts)


def _end(segment: Segment) -> float:
    """The segment's end, never before its start (players reject such cues)."""
    return max(segment.end, segment.start)


def _finite(value: float) -> float | None:
    """JSON has no NaN or infinity: such values are written as null."""
    return float(value) if math.isfinite(value) else None


def _quoted(path: Path) -> str:
    text = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in str(path))
    return f"'{text}'"

"""`earshot transcribe FILE...`: files to TXT / SRT / VTT / JSON."""

from __future__ import annotations

import argparse
import logging
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from app.commands.archive import add_archive_options, run_archive, wants_archive_run
from app.commands.common import add_model_options, add_vocabulary_options, one_line, option_flag
from app.commands.transcript_output import TranscriptOutput
from app.engine.types import (
    CancelledError,
    CancelToken,
    DecodeOptions,
    DecodeOptionsError,
    Precision,
    Segment,
    Task,
)

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from app.engine.export.subtitles import SubtitleOptions
    from app.engine.transcribe.whisper_engine import WhisperEngine

# Kept in step with app.engine.export.formats.FORMATS; duplicated so `earshot --help` stays fast.
FORMATS = ("txt", "srt", "vtt", "json")
CUE_LAYOUTS = ("readable", "segments")  # app.engine.export.subtitles.CueLayout's values


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("transcribe", help="transcribe audio or video files")
    p.add_argument("files", nargs="+", metavar="FILE|DIR")
    add_model_options(p)
    p.add_argument("--language", default=None, help="language code (default: detect on multilingual models)")
    p.add_argument("--task", default="transcribe", choices=[t.value for t in Task])
    p.add_argument("--beam-size", type=int, default=5, help="1 = greedy (default: 5)")
    p.add_argument("--initial-prompt", default=None, help="text that primes spelling and vocabulary")
    add_vocabulary_options(p)
    p.add_argument("--no-condition", action="store_true", help="do not prompt each window with the previous text")
    p.add_argument(
        "--batch-size",
        type=int,
        default=1,
        help="decode N 30 s windows of a long file at once: faster, greedy, not prompted with "
        "the previous text; each window ends in the longest pause the voice detector finds "
        "in its last 10 s, so no utterance is cut (default: 1, sequential)",
    )
    p.add_argument(
        "--format", dest="formats", action="append", choices=FORMATS, help="output format, repeatable (default: txt)"
    )
    p.add_argument("--output-dir", default="-", help="folder for <stem>.<format> files, or - for stdout (default)")
    _add_word_options(p)
    add_archive_options(p)
    p.set_defaults(func=run)


def _add_word_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--word-timestamps",
        action="store_true",
        help="time every word (JSON: segments[].words; the text is the same; on by itself for readable SRT/VTT cues)",
    )
    p.add_argument(
        "--cues",
        choices=CUE_LAYOUTS,
        default="readable",
        help="SRT/VTT: readable word-timed cues (default: at most 2 lines of 42 characters, 7 s, "
        "cut at sentence and clause ends, never overlapping) or one cue per transcribed segment",
    )
    p.add_argument(
        "--max-line-width",
        type=int,
        default=42,
        metavar="N",
        help="SRT/VTT readable cues: lines of at most N characters (default: 42)",
    )
    p.add_argument(
        "--max-line-count", type=int, default=2, metavar="N", help="SRT/VTT readable cues: at most N lines (default: 2)"
    )
    p.add_argument(
        "--highlight-words", action="store_true", help="SRT/VTT readable cues: underline each word while it is spoken"
    )


def _subtitle_options(args: argparse.Namespace) -> SubtitleOptions:
    """The SRT/VTT cue options; raises ValueError with a one-line reason when invalid."""
    from app.engine.export.subtitles import CueLayout, SubtitleOptions

    layout = CueLayout(args.cues)
    if layout is CueLayout.SEGMENTS and args.highlight_words:
        raise ValueError("--highlight-words needs readable cues, not --cues segments")
    return SubtitleOptions(args.max_line_width, args.max_line_count, args.highlight_words, layout)


def _options(args: argparse.Namespace) -> DecodeOptions:
    """The decode options; raises `DecodeOptionsError` (one line) for a value out of range.
    Readable SRT/VTT cues are timed by their words, so asking for them times the words."""
    cue_formats = {"srt", "vtt"} & set(args.formats or [])
    word_times = args.word_timestamps or (bool(cue_formats) and args.cues == "readable")
    return DecodeOptions(
        task=Task(args.task),
        language=args.language,
        beam_size=args.beam_size,
        initial_prompt=args.initial_prompt,
        condition_on_previous_text=not args.no_condition,
        vocabulary=args.vocabulary,
        vocabulary_boost=args.vocabulary_boost,
        batch_size=args.batch_size,
        word_timestamps=word_times,
    )


class _Progress:
    """A one-line progress bar on stderr, shown only when stderr is a terminal."""

    def __init__(self, name: str) -> None:
        self.name, self.enabled = name, sys.stderr.isatty()

    def __call__(self, done_s: float, total_s: float) -> None:
        if self.enabled and total_s > 0:
            filled = int(30 * done_s / total_s)
            bar = "#" * filled + "." * (30 - filled)
            sys.stderr.write(f"\r{self.name[:30]:30} [{bar}] {done_s:6.0f}/{total_s:.0f} s")
            sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")


def _transcribe_one(
    engine: WhisperEngine, index: int, path: Path, options: DecodeOptions, output: TranscriptOutput, cancel: CancelToken
) -> bool:
    """Transcribe and write input `index`; False if it could not be read or written where asked."""
    from app.audio.file_decoder import AudioDecodeError
    from app.audio.file_stream import open_file_stream
    from app.audio.vad import SileroVadModel
    from app.engine.export.formats import TranscriptMeta

    t0 = time.perf_counter()
    try:
        stream = open_file_stream(path)  # decoded as it is transcribed: flat memory on long files
    except AudioDecodeError as exc:
        log.warning("cannot read %s", path, exc_info=True)
        print(f"earshot: error: {one_line(exc)}", file=sys.stderr)
        return False
    decode_s = time.perf_counter() - t0
    progress = _Progress(path.name)
    segments_iter, info = engine.transcribe(
        stream.chunks, options, cancel, progress, duration_s=stream.duration_s, speech=SileroVadModel()
    )
    segments: list[Segment] = []
    interrupted = False
    try:
        for segment in segments_iter:
            segments.append(segment)
    except (KeyboardInterrupt, CancelledError):
        interrupted = True  # keep and write what was transcribed so far
    finally:
        progress.close()
    info.timings.load_s, info.timings.decode_audio_s = engine.load_s, decode_s
    info.timings.total_s = time.perf_counter() - t0
    meta = TranscriptMeta.of(str(path), engine.name, engine.precision.value, info)
    written = output.write(index, segments, meta)
    if interrupted:
        raise KeyboardInterrupt
    return written


def _checked_language(engine: WhisperEngine, language: str | None) -> str | None:
    """`--language` as the model takes it: None (detect / English-only model) or a code it knows.

    Raises `UsageError` for a code the model does not know; on an English-only model any other
    language is ignored, with a notice on stderr.
    """
    if language is None:
        return None
    code = language.strip().lower()
    if not engine.is_multilingual:
        if code != "en":
            print(
                f"earshot: {engine.name} understands English only: --language {language} is ignored, "
                "transcribing in English (use a multilingual model for other languages)",
                file=sys.stderr,
            )
        return None
    known = engine.tokenizer.language_tokens
    if code not in known:
        raise UsageError(
            f"--language {language!r} is not a language {engine.name} knows; give a code "
            f"such as en, de, fr, es, zh (all: {', '.join(sorted(known))})"
        )
    return code


class UsageError(Exception):
    """A command-line value that cannot be used; `str(error)` is one line."""


def run(args: argparse.Namespace) -> int:
    from app.engine.convert.weights import ModelFormatError
    from app.engine.models.loader import load_engine
    from app.engine.tokenizer import TokenizerError

    try:
        options = _options(args)
        subtitles = _subtitle_options(args)
    except DecodeOptionsError as exc:
        log.info("refused decode options", exc_info=True)
        print(f"earshot: error: {option_flag(exc)}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"earshot: error: {exc}", file=sys.stderr)
        return 2
    try:
        engine = load_engine(args.model, Precision(args.precision), args.provider, args.threads or None)
    except (ModelFormatError, TokenizerError, OSError) as exc:
        log.warning("cannot load the model %s", args.model, exc_info=True)
        print(f"earshot: error: cannot load the model: {one_line(exc)}", file=sys.stderr)
        return 2
    if engine.fallback_reason:
        print(f"earshot: {engine.fallback_reason}", file=sys.stderr)
    try:
        options = replace(options, language=_checked_language(engine, options.language))
    except UsageError as exc:
        log.info("refused --language %s", args.language, exc_info=True)
        print(f"earshot: error: {exc}", file=sys.stderr)
        return 2
    if wants_archive_run(args):
        return run_archive(args, engine, options, subtitles)
    return _transcribe_all(
        engine, args.files, options, TranscriptOutput(args.output_dir, args.formats or [], args.files, subtitles)
    )


def _transcribe_all(engine: WhisperEngine, files: list[str], options: DecodeOptions, output: TranscriptOutput) -> int:
    """Every file in turn; a failure is one line and the others go on. Exit status 0, 1 or 130."""
    try:
        return _transcribe_each(engine, files, options, output)
    finally:
        output.finish()


def _transcribe_each(engine: WhisperEngine, files: list[str], options: DecodeOptions, output: TranscriptOutput) -> int:
    failures = 0
    cancel = CancelToken()
    for index, name in enumerate(files):
        try:
            ok = _transcribe_one(engine, index, Path(name), options, output, cancel)
        except KeyboardInterrupt:
            print("earshot: interrupted; what was transcribed has been written", file=sys.stderr)
            return 130
        except OSError as exc:
            log.warning("transcribing %s failed", name, exc_info=True)
            print(f"earshot: error: {name}: {one_line(exc)}", file=sys.stderr)
            ok = False
        except Exception as exc:  # any other failure on one file must not lose the others
            log.exception("transcribing %s failed", name)
            print(
                f"earshot: error: {name}: could not be transcribed ({type(exc).__name__}: {one_line(exc)})",
                file=sys.stderr,
            )
            ok = False
        failures += not ok
    return 1 if failures else 0

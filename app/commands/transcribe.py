"""`earshot transcribe FILE...`: files to TXT / SRT / VTT / JSON."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from app.commands.common import add_model_options, one_line
from app.engine.types import CancelledError, CancelToken, DecodeOptions, Precision, Segment, Task

if TYPE_CHECKING:
    from app.engine.formats import TranscriptMeta
    from app.engine.model import WhisperEngine

# Kept in step with app.engine.formats.FORMATS; duplicated so `earshot --help` stays fast.
FORMATS = ("txt", "srt", "vtt", "json")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("transcribe", help="transcribe audio or video files")
    p.add_argument("files", nargs="+", metavar="FILE")
    add_model_options(p)
    p.add_argument("--language", default=None, help="language code (default: detect on multilingual models)")
    p.add_argument("--task", default="transcribe", choices=[t.value for t in Task])
    p.add_argument("--beam-size", type=int, default=5, help="1 = greedy (default: 5)")
    p.add_argument("--initial-prompt", default=None, help="text that primes spelling and vocabulary")
    p.add_argument("--no-condition", action="store_true", help="do not prompt each window with the previous text")
    p.add_argument("--batch-size", type=int, default=1,
                   help="decode N 30 s windows of a long file at once: faster, greedy, not prompted with "
                        "the previous text; each window ends in the longest pause the voice detector finds "
                        "in its last 10 s, so no utterance is cut (default: 1, sequential)")
    p.add_argument("--format", dest="formats", action="append", choices=FORMATS,
                   help="output format, repeatable (default: txt)")
    p.add_argument("--output-dir", default="-", help="folder for <stem>.<format> files, or - for stdout (default)")
    p.set_defaults(func=run)


def _options(args: argparse.Namespace) -> DecodeOptions:
    return DecodeOptions(task=Task(args.task), language=args.language, beam_size=max(1, args.beam_size),
                         initial_prompt=args.initial_prompt, condition_on_previous_text=not args.no_condition,
                         batch_size=max(1, args.batch_size))


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


def _transcribe_one(engine: WhisperEngine, path: Path, args: argparse.Namespace, cancel: CancelToken) -> bool:
    """Transcribe and write one file; returns False if the file could not be read."""
    from app.audio.file_decoder import AudioDecodeError
    from app.audio.file_stream import open_file_stream
    from app.audio.vad import SileroVadModel
    from app.engine.formats import TranscriptMeta

    t0 = time.perf_counter()
    try:
        stream = open_file_stream(path)  # decoded as it is transcribed: flat memory on long files
    except AudioDecodeError as exc:
        print(f"earshot: error: {one_line(exc)}", file=sys.stderr)
        return False
    decode_s = time.perf_counter() - t0
    progress = _Progress(path.name)
    segments_iter, info = engine.transcribe(stream.chunks, _options(args), cancel, progress,
                                            duration_s=stream.duration_s, speech=SileroVadModel())
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
    meta = TranscriptMeta(str(path), engine.name, engine.precision.value, info.language,
                          info.language_probability, info.duration_s, info.timings)
    _write_outputs(segments, meta, path, args)
    if interrupted:
        raise KeyboardInterrupt
    return True


def _write_outputs(segments: list[Segment], meta: TranscriptMeta, path: Path, args: argparse.Namespace) -> None:
    from app.engine.formats import render, write_transcript

    for fmt in args.formats or ["txt"]:
        if args.output_dir == "-":
            sys.stdout.write(render(fmt, segments, meta).rstrip("\n") + "\n")
            sys.stdout.flush()
        else:
            out = write_transcript(fmt, segments, meta, Path(args.output_dir), path.stem)
            print(f"wrote {out}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    from app.engine.convert.weights import ModelFormatError
    from app.engine.loader import load_engine
    from app.engine.tokenizer import TokenizerError

    try:
        engine = load_engine(args.model, Precision(args.precision), args.provider, args.threads or None)
    except (ModelFormatError, TokenizerError, OSError) as exc:
        print(f"earshot: error: cannot load the model: {one_line(exc)}", file=sys.stderr)
        return 2
    if engine.fallback_reason:
        print(f"earshot: {engine.fallback_reason}", file=sys.stderr)
    failures = 0
    cancel = CancelToken()
    for name in args.files:
        try:
            ok = _transcribe_one(engine, Path(name), args, cancel)
        except KeyboardInterrupt:
            print("earshot: interrupted; what was transcribed has been written", file=sys.stderr)
            return 130
        except OSError as exc:
            print(f"earshot: error: {name}: {one_line(exc)}", file=sys.stderr)
            ok = False
        failures += not ok
    return 1 if failures else 0

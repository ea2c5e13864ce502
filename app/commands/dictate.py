"""`earshot dictate`: live dictation from the microphone (or a replayed file) to stdout."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from dataclasses import replace
from typing import TYPE_CHECKING

from app.commands.common import add_model_options, add_vocabulary_options, one_line, option_flag
from app.commands.stop_signals import counting_stop_signals

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from app.audio.capture import MicrophoneCapture
    from app.audio.replay import ReplaySource
    from app.dictation.audio_journal import AudioJournal
    from app.dictation.events import DictationEvent
    from app.dictation.live_worker import DictationOptions
    from app.engine.transcribe.whisper_engine import WhisperEngine


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("dictate", help="live dictation from the microphone (Ctrl-C to stop)")
    p.add_argument(
        "--input",
        default=None,
        metavar="FILE",
        help="replay this audio/video file through the live path instead of the microphone",
    )
    p.add_argument("--realtime", action="store_true", help="with --input: replay at 1x speed (default: fast)")
    p.add_argument(
        "--json", action="store_true", help="print one JSON event per line (commits carry words with start/end times)"
    )
    p.add_argument("--device", default=None, help="input device name (substring) or index (default: system default)")
    p.add_argument("--list-devices", action="store_true", help="list input devices and exit")
    p.add_argument("--language", default=None, help="language code for multilingual models (default: detect)")
    p.add_argument("--step", type=float, default=0.5, help="seconds between re-decodes (default: 0.5)")
    p.add_argument("--record", action="store_true", help="also save the session audio as WAV in the data folder")
    p.add_argument(
        "--no-close-sentences",
        dest="close_sentences",
        action="store_false",
        help="leave sentence ends as Whisper wrote them (default: a period between utterances "
        "where the next starts a sentence, and at the end of a session stopped mid-sentence)",
    )
    add_vocabulary_options(p)
    add_model_options(p)
    p.set_defaults(func=run)


def _list_devices() -> int:
    from app.audio.capture import AudioDeviceError, list_input_devices

    try:
        devices = list_input_devices()
    except AudioDeviceError as exc:
        log.warning("dictation failed", exc_info=True)
        print(f"earshot dictate: {one_line(exc)}", file=sys.stderr)
        return 2
    for dev in devices:
        mark = "*" if dev.is_default else " "
        print(f"{mark} {dev.index:3d}  {dev.name}  ({dev.host_api}, {dev.channels} ch, {dev.default_rate:.0f} Hz)")
    if not devices:
        print("no input devices", file=sys.stderr)
    return 0


def _options(args: argparse.Namespace, realtime: bool) -> DictationOptions:
    from app.dictation.live_worker import DictationOptions
    from app.dictation.policy import PolicyOptions, streaming_decode_options

    # --json events carry each committed word's times (one extra decoder pass per decode)
    decode = replace(
        streaming_decode_options(args.language, word_times=args.json),
        vocabulary=args.vocabulary,
        vocabulary_boost=args.vocabulary_boost,
    )
    policy = PolicyOptions(step_s=max(0.1, args.step), decode=decode, close_sentences=args.close_sentences)
    return DictationOptions(policy=policy, realtime=realtime)


class _Printer:
    """Human output: committed text on stdout, one line per utterance; errors on stderr.

    An utterance's closing mark is committed with the next utterance's first word (or when the
    session ends), so the line break after an utterance waits for it: the mark ends the line."""

    def __init__(self, as_json: bool) -> None:
        self.as_json = as_json
        self.line_open = False
        self.break_pending = False

    def __call__(self, event: DictationEvent) -> None:
        from app.dictation.events import EventType

        if self.as_json:
            data = event.summary.to_json_dict() if event.summary else event.to_json_dict()
            print(json.dumps(data, ensure_ascii=False), flush=True)
            if event.type is EventType.ERROR:
                print(f"earshot dictate: {event.text}", file=sys.stderr)
            return
        if event.type in (EventType.COMMIT, EventType.FINAL) and event.text:
            self._write(event.text)
        if event.type is EventType.FINAL and self.line_open:
            self.break_pending = True
        if event.summary is not None and self.line_open:
            self._end_line()
        sys.stdout.flush()
        if event.type is EventType.ERROR:
            print(f"earshot dictate: {event.text}", file=sys.stderr)
        if event.summary is not None:
            s = event.summary
            print(
                f"[{s.audio_s:.1f} s of audio, {s.utterances} utterances, compute ratio "
                f"{s.compute_ratio:.2f}, overflows {s.overflows}]",
                file=sys.stderr,
            )

    def _write(self, text: str) -> None:
        """`text`: a committed delta with Whisper's leading space, perhaps led by the previous
        utterance's closing mark (". The")."""
        if self.break_pending:
            words = text.lstrip()
            mark = "" if text[:1].isspace() else words[: len(words) - len(words.lstrip(_MARKS))]
            if mark:
                sys.stdout.write(mark)
            self._end_line()
            text = words[len(mark) :]
        if not self.line_open:
            text = text.lstrip()
        if text:
            sys.stdout.write(text)
            self.line_open = True

    def _end_line(self) -> None:
        sys.stdout.write("\n")
        self.line_open = self.break_pending = False


_MARKS = ".,;:!?…"


def run(args: argparse.Namespace) -> int:
    if args.list_devices:
        return _list_devices()
    opened = _open(args)
    if opened is None:
        return 2
    source, options, engine = opened
    if not args.input and not args.json:
        print("Listening... (Ctrl-C to stop)", file=sys.stderr)
    return _dictate(args, source, options, engine)


def _open(args: argparse.Namespace) -> tuple[MicrophoneCapture | ReplaySource, DictationOptions, WhisperEngine] | None:
    """The audio source, the options and the loaded model; None after one line on stderr."""
    from app.audio.capture import AudioDeviceError
    from app.audio.file_decoder import AudioDecodeError
    from app.dictation.session import file_source, microphone_source
    from app.engine.models.loader import load_engine
    from app.engine.types import Precision

    source: MicrophoneCapture | ReplaySource
    try:
        if args.input:
            source = file_source(args.input, args.realtime)
            realtime = args.realtime
        else:
            device = int(args.device) if args.device and args.device.isdigit() else args.device
            source, realtime = microphone_source(device), True
        options = _options(args, realtime)  # DecodeOptionsError (a ValueError): one line, before the model loads
        engine = load_engine(args.model, Precision(args.precision), args.provider, args.threads or None)
    except (AudioDeviceError, AudioDecodeError, OSError, ValueError) as exc:
        log.warning("dictation failed", exc_info=True)
        print(f"earshot dictate: {option_flag(exc)}", file=sys.stderr)
        return None
    if engine.fallback_reason:
        print(f"earshot dictate: {engine.fallback_reason}", file=sys.stderr)
    return source, options, engine


def _dictate(
    args: argparse.Namespace, source: MicrophoneCapture | ReplaySource, options: DictationOptions, engine: WhisperEngine
) -> int:
    """Run the session to its end, printing its text; the exit status."""
    from app.audio.capture import AudioDeviceError
    from app.dictation.events import EventType
    from app.dictation.session import iter_events, start_session

    journal = None if args.input else _open_journal()  # a replayed file is on disk already
    with counting_stop_signals() as stops:  # a stop mid-print would skip the flush and the journal
        try:
            worker, sink = start_session(source, engine, options, record=args.record, journal=journal)
        except AudioDeviceError as exc:
            log.warning("dictation failed", exc_info=True)
            print(f"earshot dictate: {one_line(exc)}", file=sys.stderr)
            if journal is not None:
                journal.discard()
            return 2
        printer = _Printer(args.json)
        failed = False
        for event in iter_events(worker, sink, stops):
            printer(event)  # on stdout: the text is the user's now, its audio is not needed
            failed = failed or event.type is EventType.ERROR
            if journal is not None and event.type in (EventType.COMMIT, EventType.FINAL):
                journal.mark_committed(event.audio_end_s)
    if journal is not None and worker.failure is None:
        journal.discard()
    elif journal is not None:
        journal.close()  # its audio has no text: the next start of the window offers it
    return 1 if failed else 0


def _open_journal() -> AudioJournal | None:
    """The crash-recovery journal of this session (the window offers what a killed session left,
    as it does for its own); None, said once, when the data folder cannot take it."""
    from app.dictation.audio_journal import AudioJournal, find_leftovers, recovery_dir

    try:
        left = find_leftovers(recovery_dir())
        if left:
            seconds = sum(item.duration_s for item in left)
            print(
                f"earshot dictate: {seconds:.0f} s of audio from a dictation that was stopped by force has no "
                "text yet; open Earshot to transcribe it",
                file=sys.stderr,
            )
        return AudioJournal(recovery_dir())
    except OSError as exc:
        log.warning("no dictation audio journal", exc_info=True)
        print(
            f"earshot dictate: the audio is not journaled ({one_line(exc)}): a crash would lose what has no text yet",
            file=sys.stderr,
        )
        return None

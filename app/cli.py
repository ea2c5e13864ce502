"""The `earshot` command: no arguments opens the window; subcommands run headless."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from app import __version__
from app.diagnostics import configure_logging, log_file_path
from app.ui.gui_options import add_gui_arguments

# Subcommand modules under app.commands; each has `register(subparsers)`.
_COMMAND_MODULES = ("transcribe", "models", "dictate", "control")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="earshot", description="Offline dictation and transcription with Whisper."
    )
    parser.add_argument("--version", action="store_true", help="print the version and where the log is")
    parser.add_argument("--self-test", action="store_true", help="check the bundled model, Qt and audio")
    add_gui_arguments(parser)  # `earshot [options]` opens the window
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _COMMAND_MODULES:
        try:
            module = importlib.import_module(f"app.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"app.commands.{name}":
                continue  # that command is not part of this build
            raise
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    args, extra = parser.parse_known_args(argv)
    if args.version:
        print(f"earshot {__version__}\nlog: {log_file_path()}")
        return 0
    configure_logging()  # one log for the window, the self-test and every subcommand
    if args.self_test:
        from app.commands.selftest import run_self_test

        return int(run_self_test())
    if args.command is None:
        from app.composition import run_gui

        return int(run_gui(argv))  # the window parses its own options again (and Qt's)
    if extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130

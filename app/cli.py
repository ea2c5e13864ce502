"""The `earshot` command: no arguments opens the window; subcommands run headless."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

import app
from app.commands.stop_signals import exit_status, stopping_on_signals
from app.diagnostics import configure_logging, log_file_path
from app.ui.gui_options import add_gui_arguments

# Subcommand modules under app.commands; each has `register(subparsers)`.
_COMMAND_MODULES = ("transcribe", "models", "dictate", "control")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="earshot", description="Offline dictation and transcription with Whisper.")
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


def _top_level_only(argv: list[str]) -> argparse.Namespace | None:
    """The options of `earshot` without a subcommand (window, --version, --self-test), read
    without importing the subcommands' modules (which the window does not need before it shows);
    None when `argv` names a subcommand or asks for help (the full parser answers those)."""
    if any(arg in ("-h", "--help") for arg in argv):
        return None
    parser = argparse.ArgumentParser(prog="earshot", add_help=False)
    parser.add_argument("--version", action="store_true")
    parser.add_argument("--self-test", action="store_true")
    add_gui_arguments(parser)
    parser.add_argument("command", nargs="?")
    try:
        args, _extra = parser.parse_known_args(argv)
    except SystemExit:  # a bad option value: the full parser says what is wrong
        return None
    return args if args.command is None else None


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    top_level = _top_level_only(argv)
    if top_level is not None:
        return _run_top_level(top_level, argv)
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if args.command is None:
        return _run_top_level(args, argv)
    if extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    configure_logging()  # one log for the window, the self-test and every subcommand
    try:
        with stopping_on_signals():
            return int(args.func(args))
    except KeyboardInterrupt as stop:
        print("interrupted", file=sys.stderr)
        return exit_status(stop)


def _run_top_level(args: argparse.Namespace, argv: list[str]) -> int:
    """`earshot --version`, `earshot --self-test`, or the window."""
    if args.version:
        print(f"earshot {app.__version__}\nlog: {log_file_path()}")
        return 0
    configure_logging()
    if args.self_test:
        from app.commands.selftest import run_self_test

        return int(run_self_test())
    from app.composition import run_gui

    return int(run_gui(argv))  # the window parses its own options again (and Qt's)

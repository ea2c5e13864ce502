"""The options of `earshot` without a subcommand (the window), Qt-free so that the top-level
command line knows them too: `earshot --output type` must not read "type" as a subcommand."""

from __future__ import annotations

import argparse
from pathlib import Path

OUTPUT_MODES = ("window", "type", "paste")
HOTKEY_MODES = ("toggle", "hold")


def add_gui_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--replay",
        type=Path,
        metavar="FILE",
        help="dictate from this audio file (replayed in real time) instead of the microphone",
    )
    parser.add_argument("--minimized", action="store_true", help="start hidden in the tray")
    parser.add_argument(
        "--output",
        choices=OUTPUT_MODES,
        help="for this run (not saved): where committed text goes (window = Earshot only; type or "
        "paste = into the focused app)",
    )
    parser.add_argument(
        "--hotkey", metavar="KEYS", help='for this run (not saved): the global hotkey, e.g. "ctrl+alt+d" ("" = none)'
    )
    parser.add_argument(
        "--hotkey-mode",
        choices=HOTKEY_MODES,
        help="for this run (not saved): toggle (press to start and stop) or hold (push-to-talk)",
    )

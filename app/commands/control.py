"""`earshot toggle | start | stop | cancel | status`: control the running app.

For desktops where Earshot cannot grab a global hotkey (Wayland, macOS): bind these commands to
a keyboard shortcut in the system settings. They also work from scripts.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

_HELP = {
    "toggle": "start dictating in the running Earshot, or stop if it is dictating",
    "start": "start dictating in the running Earshot",
    "stop": "stop dictating (the last words are still transcribed and output)",
    "cancel": "stop dictating at once",
    "status": "print the running Earshot's dictation state",
}


def register(subparsers: Any) -> None:
    for name, help_text in _HELP.items():
        parser = subparsers.add_parser(name, help=help_text, description=help_text[0].upper() + help_text[1:] + ".")
        parser.set_defaults(func=run, control_command=name)


def run(args: argparse.Namespace) -> int:
    try:
        from app.controller.desktop.control_server import ControlError, send_command
    except ImportError as exc:  # a build without Qt's network module
        print(f"earshot: control commands are not available in this build ({exc})", file=sys.stderr)
        return 1
    try:
        state = send_command(args.control_command)
    except ControlError as exc:
        print(f"earshot: {exc}", file=sys.stderr)
        return 1
    print(state)
    return 0

"""`earshot` with no subcommand: open the window at once, load the model behind it."""

from __future__ import annotations

import argparse
import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from app.controller.app_controller import AppController
from app.controller.ports import AudioSource
from app.ui import desktop_output
from app.ui.gui_options import add_gui_arguments
from app.ui.main_window import MainWindow
from app.ui.theme import apply_theme
from app.ui.tray import Tray


def parse_gui_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="earshot", description="Open the Earshot window.")
    add_gui_arguments(parser)
    args, _qt_args = parser.parse_known_args(argv)
    return args


def create_app(argv: list[str]) -> tuple[QApplication, MainWindow, AppController]:
    """Build the application, controller and window (shown; the model is not loaded yet)."""
    args = parse_gui_args(argv)
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication([sys.argv[0], *argv])
    app.setApplicationName("Earshot")
    app.setOrganizationName("Earshot")
    app.setDesktopFileName("earshot")
    app.setQuitOnLastWindowClosed(False)  # the tray may keep us alive; MainWindow quits
    apply_theme(app)
    from app.composition import build_parts  # after Qt: keeps the first paint early

    controller = AppController(build_parts())
    if args.replay is not None:
        controller.dictation.source_override = AudioSource(replay_file=args.replay, realtime=True)
    window = MainWindow(controller, Tray(app))
    if not (args.minimized and window.tray and window.tray.available):
        window.show()
    return app, window, controller


def run_gui(argv: list[str]) -> int:
    if desktop_output.forward_to_running_instance():
        return 0  # the running Earshot came to the front
    app, window, controller = create_app(argv)
    output = desktop_output.DesktopOutput(app, window, controller, parse_gui_args(argv))
    if not output.start():
        return 0
    QTimer.singleShot(0, controller.start)  # the window paints first, then the model loads
    return app.exec()

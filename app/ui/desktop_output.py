"""Wires "dictate into any app" into the GUI: the desktop integration (hotkey, control channel,
output) following the settings and this session's command-line options, the indicator, and a
second `earshot` handing over to the first. Called from `app.ui.main.run_gui`."""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any

from PySide6.QtWidgets import QApplication

from app.controller.desktop_integration import DesktopIntegration, DesktopOptions, options_from_settings
from app.dictation.hotkeys import HotkeyMode
from app.dictation.output import OutputMode
from app.settings.model import Settings
from app.ui.indicator import DictationIndicator


def forward_to_running_instance() -> bool:
    """True when an Earshot already runs (it was asked to come to the front): do not start another."""
    try:
        from app.controller.control_server import ControlError, send_command
    except ImportError:  # a build without QtNetwork: no single-instance channel
        return False
    try:
        send_command("show", timeout_ms=1000)
    except ControlError:
        return False
    return True


class DesktopOutput:
    """The integration plus the indicator, following the settings and this session's options."""

    def __init__(self, app: QApplication, window: Any, controller: Any, args: argparse.Namespace) -> None:
        self.args = args
        self.controller = controller
        self.window = window
        options, problem = self._options(controller.settings)
        self.integration = DesktopIntegration(controller.dictation, options, parent=controller)
        self.indicator = DictationIndicator()
        self._show_indicator = controller.settings.output.show_indicator
        dictation = controller.dictation
        dictation.state_changed.connect(self._on_state)
        dictation.level.connect(self.indicator.set_level)
        self.indicator.clicked.connect(dictation.toggle)
        self.integration.notice.connect(window.notice.show_message)
        self.integration.show_requested.connect(window.bring_to_front)
        controller.settings_changed.connect(self._on_settings)
        app.aboutToQuit.connect(self.shutdown)
        if problem:
            window.notice.show_message(problem)

    def start(self) -> bool:
        """False when another Earshot took the control channel first."""
        if not self.integration.start():
            return False
        self.indicator.hint = self.integration.hotkey.chord
        return True

    def shutdown(self) -> None:
        self.indicator.hide()
        self.integration.shutdown()

    def _options(self, settings: Settings) -> tuple[DesktopOptions, str | None]:
        options, problem = options_from_settings(settings.output)
        args = self.args
        if args.output:
            output = dataclasses.replace(options.output, mode=OutputMode(args.output))
            options = dataclasses.replace(options, output=output)
        if args.hotkey is not None:
            options = dataclasses.replace(options, hotkey=args.hotkey.strip())
        if args.hotkey_mode:
            options = dataclasses.replace(options, hotkey_mode=HotkeyMode(args.hotkey_mode))
        return options, problem

    def _on_settings(self, settings: Settings) -> None:
        options, problem = self._options(settings)
        self.integration.apply(options)
        self.indicator.hint = self.integration.hotkey.chord
        notice = self.window.notice
        if self.integration.hotkey.chord == options.hotkey and notice.label.text().startswith("The hotkey "):
            notice.hide()  # the hotkey problem it showed is fixed now
        self._show_indicator = settings.output.show_indicator
        if problem:
            self.window.notice.show_message(problem)

    def _on_state(self, state: Any, reason: str) -> None:
        if self._show_indicator:
            self.indicator.set_state(state, reason)
        else:
            self.indicator.hide()

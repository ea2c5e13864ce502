"""The view of "dictate into any app": the floating indicator following the dictation, and the
desktop run's notices in the window. The desktop run itself (hotkey, control channel, output)
is built by the composition root (`app.composition.build_desktop_output`)."""

from __future__ import annotations

from typing import Any

from app.controller.app_controller import AppController
from app.controller.desktop.integration import DesktopIntegration
from app.controller.desktop.run_options import DesktopRun
from app.controller.states import RecordState
from app.settings.schema import Settings
from app.ui.indicator import DictationIndicator


def forward_to_running_instance() -> bool:
    """True when an Earshot already runs (it was asked to come to the front): do not start another."""
    try:
        from app.controller.desktop.control_server import ControlError, send_command
    except ImportError:  # a build without QtNetwork: no single-instance channel
        return False
    try:
        send_command("show", timeout_ms=1000)
    except ControlError:
        return False
    return True


class DesktopOutput:
    """The indicator and the window's side of the desktop run."""

    def __init__(self, window: Any, controller: AppController, desktop_run: DesktopRun) -> None:
        self.window = window
        self.desktop_run = desktop_run
        self.indicator = DictationIndicator()
        self.indicator.avoid = window
        self._show_indicator = controller.settings.output.show_indicator
        dictation = controller.dictation
        dictation.state_changed.connect(self._on_state)
        dictation.level.connect(self.indicator.set_level)
        self.indicator.clicked.connect(dictation.toggle)
        desktop_run.notice.connect(window.notice.show_message)
        desktop_run.integration.show_requested.connect(window.bring_to_front)
        desktop_run.settings_applied.connect(self._on_settings)
        if desktop_run.startup_problem:
            window.notice.show_message(desktop_run.startup_problem)

    @property
    def integration(self) -> DesktopIntegration:
        return self.desktop_run.integration

    def start(self) -> bool:
        """False when another Earshot took the control channel first."""
        if not self.desktop_run.start():
            return False
        self.indicator.hint = self.integration.hotkey.chord
        return True

    def shutdown(self) -> None:
        self.indicator.hide()
        self.desktop_run.shutdown()

    def _on_settings(self, settings: Settings) -> None:
        self.indicator.hint = self.integration.hotkey.chord
        notice = self.window.notice
        if self.desktop_run.hotkey_works and notice.label.text().startswith("The hotkey "):
            notice.hide()  # the hotkey problem it showed is fixed now
        self._show_indicator = settings.output.show_indicator

    def _on_state(self, state: RecordState, reason: str) -> None:
        if self._show_indicator:
            self.indicator.set_state(state, reason)
        else:
            self.indicator.hide()

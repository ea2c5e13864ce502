"""The desktop integration for one run of the app: it follows the settings, with this run's
command-line choices (`--output`, `--hotkey`, `--hotkey-mode`) on top. Built by the
composition root; the views only show what it says (`notice`, the hotkey's chord)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal

from app.controller.app_controller import AppController
from app.controller.desktop.integration import DesktopIntegration, DesktopOptions, options_from_settings
from app.desktop.hotkeys import HotkeyMode
from app.desktop.typing import OutputMode
from app.settings.schema import OutputSettings, Settings


@dataclass(frozen=True)
class RunOverrides:
    """This run's command-line choices; None = what the settings say."""

    output: OutputMode | None = None
    hotkey: str | None = None
    hotkey_mode: HotkeyMode | None = None


def run_desktop_options(settings: OutputSettings, overrides: RunOverrides) -> tuple[DesktopOptions, str | None]:
    """The settings' options with the overrides on top, and a user-facing problem with them."""
    options, problem = options_from_settings(settings)
    if overrides.output is not None:
        options = dataclasses.replace(options, output=dataclasses.replace(options.output, mode=overrides.output))
    if overrides.hotkey is not None:
        options = dataclasses.replace(options, hotkey=overrides.hotkey.strip())
    if overrides.hotkey_mode is not None:
        options = dataclasses.replace(options, hotkey_mode=overrides.hotkey_mode)
    return options, problem


class DesktopRun(QObject):
    """`integration` follows `controller.settings_changed`; `notice` carries its problems and
    the settings' (a bad replacement list); `settings_applied` follows each new application."""

    notice = Signal(str)
    settings_applied = Signal(object)  # Settings

    def __init__(self, controller: AppController, overrides: RunOverrides = RunOverrides()) -> None:
        super().__init__(controller)
        self._overrides = overrides
        options, self.startup_problem = run_desktop_options(controller.settings.output, overrides)
        self.integration = DesktopIntegration(controller.dictation, options, parent=self)
        self.integration.notice.connect(self.notice)
        self.hotkey_works = True  # False while the hotkey the settings ask for could not be grabbed
        controller.settings_changed.connect(self._on_settings)

    def start(self) -> bool:
        """False when another Earshot took the control channel first (this one should quit)."""
        return self.integration.start()

    def shutdown(self) -> None:
        self.integration.shutdown()

    def _on_settings(self, settings: Settings) -> None:
        options, problem = run_desktop_options(settings.output, self._overrides)
        self.integration.apply(options)
        self.hotkey_works = self.integration.hotkey.chord == options.hotkey
        self.settings_applied.emit(settings)
        if problem:
            self.notice.emit(problem)

"""Dictating into any app: the global hotkey, the control channel and the output router,
wired to the dictation controller.

The hotkey starts and stops dictation (toggle), or dictates while held (hold-to-talk); the
control commands (`earshot toggle` ...) do the same from another process; committed text goes
through the output router into the focused window.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from app.controller.desktop.global_hotkey import GlobalHotkey
from app.controller.desktop.output_router import OutputOptions, OutputRouter
from app.controller.states import RecordState
from app.desktop.hotkeys import HotkeyMode
from app.desktop.typing import OutputMode
from app.dictation.postprocess import PostProcessOptions, Replacement, parse_replacements
from app.settings.schema import DEFAULT_HOTKEY, OutputSettings

if TYPE_CHECKING:
    from app.controller.desktop.control_server import ControlServer

_OPEN = (RecordState.LISTENING, RecordState.HEARING_SPEECH, RecordState.FINISHING)

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DesktopOptions:
    """How dictation reaches other apps: where committed text goes, and the global hotkey."""

    output: OutputOptions = field(default_factory=OutputOptions)
    hotkey: str = DEFAULT_HOTKEY
    """e.g. "ctrl+alt+space"; "" = no global hotkey."""
    hotkey_mode: HotkeyMode = HotkeyMode.TOGGLE


def options_from_settings(settings: OutputSettings) -> tuple[DesktopOptions, str | None]:
    """The options for `settings`, and a user-facing problem with them (bad replacement lines
    are skipped whole: the list is used without them)."""
    problem = None
    try:
        replacements = parse_replacements(settings.replacements)
    except ValueError as exc:
        replacements, problem = (), f"Your replacement list is not used: {exc}."
    output = OutputOptions(OutputMode(settings.mode), postprocess_options(settings, replacements))
    return DesktopOptions(output, settings.hotkey.strip(), HotkeyMode(settings.hotkey_mode)), problem


STORED_POSTPROCESS_FIELDS = tuple(
    f.name for f in dataclasses.fields(PostProcessOptions) if f.name not in ("replacements", "filler_words")
)
"""The clean-up options stored as they are, under the same names, in the `[output]` settings
(`replacements` is stored as text and parsed; the filler words are not a setting)."""


def postprocess_options(settings: OutputSettings, replacements: tuple[Replacement, ...]) -> PostProcessOptions:
    """The one mapping from the stored `[output]` settings to the clean-up options: by name, so
    a new option is a field in both dataclasses and nothing else."""
    stored = {name: getattr(settings, name) for name in STORED_POSTPROCESS_FIELDS}
    return PostProcessOptions(**stored, replacements=replacements)


class DesktopIntegration(QObject):
    """`dictation` is the app's DictationController (signals `state_changed(RecordState, str)`,
    `committed(str)`, optionally `utterance_ended()`; methods start/stop/toggle/cancel).
    `notice` carries user-facing problems: a hotkey that cannot be grabbed, typing that failed."""

    notice = Signal(str)
    show_requested = Signal()  # `earshot show`, or a second `earshot` started

    def __init__(
        self,
        dictation: Any,
        options: DesktopOptions | None = None,
        router: OutputRouter | None = None,
        hotkey: GlobalHotkey | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.dictation = dictation
        self.options = options or DesktopOptions()
        self.router = router or OutputRouter(self.options.output, parent=self)
        self.hotkey = hotkey or GlobalHotkey(parent=self)
        self.server: ControlServer | None = None
        self._state = RecordState.IDLE
        self.router.error.connect(self.notice)
        self.router.notice.connect(self.notice)
        dictation.state_changed.connect(self._on_state)
        dictation.committed.connect(self.router.committed)
        if hasattr(dictation, "command"):
            dictation.command.connect(self.router.take_back)
        if hasattr(dictation, "utterance_ended"):
            dictation.utterance_ended.connect(self.router.utterance_ended)
        self.hotkey.pressed.connect(self._on_pressed)
        self.hotkey.released.connect(self._on_released)

    def start(self, control_name: str | None = None) -> bool:
        """Grab the hotkey and open the control channel. False: another Earshot runs (it was
        asked to show itself); this one should quit."""
        try:  # QtNetwork: a build that left it out still works, without the control commands
            from app.controller.desktop.control_server import ControlError, ControlServer, send_command
        except ImportError as exc:
            self.notice.emit(f"`earshot toggle` and the other control commands are unavailable ({exc}).")
            self.apply(self.options)
            return True
        try:
            self.server = ControlServer(self.handle_command, control_name, parent=self)
        except ControlError as exc:  # an unsafe socket folder: run, but without the channel
            log.warning("no control channel: %s", exc)
            self.notice.emit(f"`earshot toggle` and the other control commands are off: {exc}")
            self.apply(self.options)
            return True
        if not self.server.listen():
            with contextlib.suppress(ControlError):
                send_command("show", self.server.name)
            return False
        self.apply(self.options)
        return True

    def apply(self, options: DesktopOptions) -> None:
        self.options = options
        self.router.set_options(options.output)
        problem = self.hotkey.bind(options.hotkey)
        if problem:
            self.notice.emit(problem)

    def shutdown(self) -> None:
        self.hotkey.release()
        if self.server is not None:
            self.server.close()
        self.router.shutdown()

    def handle_command(self, command: str) -> str:
        """A control command from another process; returns the dictation state after it."""
        if command == "toggle":
            self.dictation.toggle()
        elif command == "start" and not self.dictation.state.is_active:
            self.dictation.start()
        elif command == "stop":
            self.dictation.stop()
        elif command == "cancel":
            self.dictation.cancel()
        elif command == "show":
            self.show_requested.emit()
        return str(self.dictation.state.value)

    def _on_pressed(self) -> None:
        self.router.set_held(True)  # the X server gives us the keyboard until release
        if self.options.hotkey_mode is HotkeyMode.TOGGLE:
            self.dictation.toggle()
        elif not self.dictation.state.is_active:
            self.dictation.start()

    def _on_released(self) -> None:
        if self.options.hotkey_mode is HotkeyMode.HOLD:
            if self.dictation.state.is_active:
                self.dictation.stop()
            elif self.dictation.state is RecordState.LOADING_MODEL:
                self.dictation.toggle()  # let go before the model was ready: do not start later
        self.router.set_held(False)

    def _on_state(self, state: RecordState, _reason: str = "") -> None:
        before, self._state = self._state, state
        if state in _OPEN and before not in _OPEN:
            self.router.session_started()
        elif state not in _OPEN and before in _OPEN:
            self.router.session_ended()

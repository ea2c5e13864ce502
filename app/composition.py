"""The app's composition root: the only place that picks concrete classes and wires them
(parts -> controller -> window, tray, desktop run), for `earshot` without a subcommand.
The command line's subcommands have their own root, `app.cli`.

Heavy imports (onnxruntime, the engine) happen inside the functions, on first use, which is
off the GUI thread for model loading, so the window appears before they are paid for.
"""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.audio.microphones import Microphone
from app.controller.app_controller import AppParts
from app.controller.ports import (
    DictationRequest,
    DictationSession,
    EngineConfig,
    EngineDescription,
    FileAudio,
    FileTranscript,
    LoadedEngine,
)
from app.dictation.events import DictationEvent
from app.engine.export.subtitles import SubtitleOptions
from app.history.store import HistoryStore
from app.installed_models import InstalledModels
from app.settings.store import SettingsStore

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

    from app.controller.app_controller import AppController
    from app.engine.export.formats import TranscriptMeta
    from app.ui.desktop_output import DesktopOutput
    from app.ui.main_window import MainWindow


def build_parts(
    settings_path: Path | None = None,
    history_path: Path | None = None,
    hold_loading: threading.Event | None = None,
) -> AppParts:
    """The real parts; with `hold_loading`, model loads wait until it is set (`held_until`)."""
    return AppParts(
        settings_store=SettingsStore(settings_path),
        history=HistoryStore(history_path),
        engine_loader=load_engine if hold_loading is None else held_until(hold_loading, load_engine),
        dictation_factory=open_dictation,
        audio_decoder=decode_audio,
        exporter=FormatsExporter(),
        catalog=InstalledModels(),
        devices=list_input_devices,
    )


# --- engine -------------------------------------------------------------------------------


def load_engine(config: EngineConfig) -> LoadedEngine:
    from app.engine.models.loader import load_engine as real_load

    engine = real_load(config.model, config.precision, config.provider)
    return LoadedEngine(engine, describe_engine(engine, config))


FIRST_PAINT_WAIT_S = 5.0
"""The longest a held model load waits for the window's first frame (one that never comes)."""


def held_until(
    gate: threading.Event, load: Callable[[EngineConfig], LoadedEngine]
) -> Callable[[EngineConfig], LoadedEngine]:
    """`load`, run once `gate` is set (the window's first frame is drawn): the model's imports
    (onnxruntime, NumPy, the tokenizer) hold the GIL for a few hundred milliseconds, which the
    first frame would otherwise wait for. The loading thread waits; the GUI thread never does."""

    def held(config: EngineConfig) -> LoadedEngine:
        gate.wait(FIRST_PAINT_WAIT_S)
        return load(config)

    return held


def describe_engine(engine: Any, config: EngineConfig) -> EngineDescription:
    """The loaded engine's own account of itself (after `auto` and any provider fallback)."""
    return EngineDescription(
        model=str(engine.name),
        precision=str(engine.precision.value),
        provider=str(engine.provider),
        multilingual=bool(engine.is_multilingual),
        note=engine.fallback_reason or "",
    )


# --- files --------------------------------------------------------------------------------


def decode_audio(path: Path) -> FileAudio:
    """The file decoded chunk by chunk as the engine reads it, with the Silero VAD as its voice
    detector (windows without speech are not decoded)."""
    from app.audio.file_stream import open_file_stream
    from app.audio.vad import SileroVadModel

    stream = open_file_stream(path)
    return FileAudio(stream.chunks, stream.duration_s, SileroVadModel())


class FormatsExporter:
    """TXT / SRT / VTT / JSON through the engine's formats module."""

    def render(self, fmt: str, transcript: FileTranscript, subtitles: SubtitleOptions | None = None) -> str:
        from app.engine.export.formats import render

        return render(fmt, transcript.segments, _meta(transcript), subtitles)

    def write(
        self, fmt: str, transcript: FileTranscript, target: Path, subtitles: SubtitleOptions | None = None
    ) -> Path:
        from app.engine.export.formats import write_transcript

        stem = target.stem if target.suffix.lower() == f".{fmt}" else target.name
        return write_transcript(fmt, transcript.segments, _meta(transcript), target.parent, stem, subtitles)


def _meta(transcript: FileTranscript) -> TranscriptMeta:
    from app.engine.export.formats import TranscriptMeta

    return TranscriptMeta(
        file=str(transcript.path),
        model=transcript.model,
        precision=transcript.precision,
        language=transcript.language,
        language_probability=transcript.language_probability,
        duration_s=transcript.duration_s,
        timings=transcript.timings,
    )


# --- live dictation -----------------------------------------------------------------------


def open_dictation(request: DictationRequest, emit: Callable[[DictationEvent], None]) -> DictationSession:
    """A live session on the real worker: microphone capture, or a file replayed into it."""
    from app.controller.live import LiveSession

    return LiveSession(request, emit)


def list_input_devices(rescan: bool = False) -> list[Microphone]:

    from app.audio.microphones import list_microphones

    return list_microphones(rescan)


# --- the window -----------------------------------------------------------------------------


def parse_gui_args(argv: list[str]) -> argparse.Namespace:
    from app.ui.gui_options import add_gui_arguments

    parser = argparse.ArgumentParser(prog="earshot", description="Open the Earshot window.")
    add_gui_arguments(parser)
    args, _qt_args = parser.parse_known_args(argv)
    return args


def create_app(
    argv: list[str], painted: threading.Event | None = None
) -> tuple[QApplication, MainWindow, AppController]:
    """Build the application, controller and window (shown; the model is not loaded yet).
    `painted` is set once the window has drawn its first frame, and model loads wait for it."""
    from PySide6.QtWidgets import QApplication

    from app.ui.theme import apply_theme

    args = parse_gui_args(argv)
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication([sys.argv[0], *argv])
    app.setApplicationName("Earshot")
    app.setOrganizationName("Earshot")
    app.setDesktopFileName("earshot")
    app.setQuitOnLastWindowClosed(False)  # the tray may keep us alive; MainWindow quits
    apply_theme(app)
    from app.controller.app_controller import AppController  # after Qt: keeps the first paint early
    from app.controller.ports import AudioSource
    from app.ui.first_paint import after_first_paint
    from app.ui.main_window import MainWindow
    from app.ui.tray import Tray

    controller = AppController(build_parts(hold_loading=painted))
    if args.replay is not None:
        controller.dictation.source_override = AudioSource(replay_file=args.replay, realtime=True)
    window = MainWindow(controller, Tray(app))
    if not (args.minimized and window.tray and window.tray.available):
        window.show()
    if painted is not None:
        after_first_paint(window, painted.set)  # at once when it starts in the tray
    return app, window, controller


def build_desktop_output(
    app: QApplication, window: MainWindow, controller: AppController, args: argparse.Namespace
) -> DesktopOutput:
    """The desktop run (hotkey, control channel, output) with this run's overrides, and
    its view (the indicator); shut down when the app quits."""
    from app.controller.desktop.run_options import DesktopRun, RunOverrides
    from app.desktop.hotkeys import HotkeyMode
    from app.desktop.typing import OutputMode
    from app.ui.desktop_output import DesktopOutput

    overrides = RunOverrides(
        output=OutputMode(args.output) if args.output else None,
        hotkey=args.hotkey,
        hotkey_mode=HotkeyMode(args.hotkey_mode) if args.hotkey_mode else None,
    )
    output = DesktopOutput(window, controller, DesktopRun(controller, overrides))
    app.aboutToQuit.connect(output.shutdown)
    return output


def run_gui(argv: list[str]) -> int:
    from app.ui.desktop_output import forward_to_running_instance

    if forward_to_running_instance():
        return 0  # the running Earshot came to the front
    from app.ui.first_paint import after_first_paint
    from app.ui.quit_on_signals import QuitOnSignals

    painted = threading.Event()
    app, window, controller = create_app(argv, painted)
    output = build_desktop_output(app, window, controller, parse_gui_args(argv))
    controller.start()  # the first frame says "Loading model"; the load itself waits for that frame
    # Also when the app quits without closing the window (a signal, `app.quit()`): the workers
    # must be joined before the interpreter exits (closing the window shuts down first).
    app.aboutToQuit.connect(controller.shutdown)
    QuitOnSignals(app)  # SIGTERM, SIGINT, SIGHUP: the same shutdown, with no question asked

    def start_desktop_run() -> None:
        if not output.start():  # another Earshot took the control channel since the check above
            app.quit()

    # The hotkey's X11 grab (python-xlib, a second X connection) and the control channel wait for
    # the first frame too; `earshot status` answers only once the hotkey is held.
    after_first_paint(window, start_desktop_run)
    return app.exec()

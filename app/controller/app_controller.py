"""The one object the widgets talk to: settings, model, dictation, file jobs and history."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from app.controller.dictation import DictationController
from app.controller.jobs import JobQueue
from app.controller.model_manager import ModelManager
from app.controller.ports import (
    AudioDecoder,
    AudioSource,
    DeviceLister,
    DictationFactory,
    EngineConfig,
    EngineLoader,
    FileTranscript,
    InputDevice,
    ModelCatalog,
    TranscriptExporter,
    VoiceDetection,
)
from app.engine.subtitles import SubtitleOptions
from app.engine.types import DecodeOptions, Precision, Task
from app.settings.history import HistoryStore
from app.settings.model import Settings
from app.settings.store import SettingsStore


@dataclass
class AppParts:
    """The concrete pieces, wired by `app.composition` (tests pass their own)."""

    settings_store: SettingsStore
    history: HistoryStore
    engine_loader: EngineLoader
    dictation_factory: DictationFactory
    audio_decoder: AudioDecoder
    exporter: TranscriptExporter
    catalog: ModelCatalog
    devices: DeviceLister


class AppController(QObject):
    settings_changed = Signal(object)  # Settings
    notice = Signal(str)  # a message the window shows once (e.g. a corrupt settings file)
    history_changed = Signal()

    def __init__(self, parts: AppParts, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.parts = parts
        loaded = parts.settings_store.load()
        self.settings: Settings = loaded.settings
        self.startup_notice = loaded.notice
        self.history = parts.history
        self.models = ModelManager(parts.engine_loader, self)
        self.dictation = DictationController(
            parts.dictation_factory, self.models, parts.history, self._dictation_request, self
        )
        self.jobs = JobQueue(
            parts.engine_loader,
            parts.audio_decoder,
            self._file_request,
            before_load=self.models.wait_ready,
            parent=self,
        )
        self.jobs.job_finished.connect(self._save_file_transcript)
        self.dictation.history_changed.connect(self.history_changed)

    def start(self) -> None:
        """Begin loading the model in the background (call after the window is shown)."""
        self.models.load(self.engine_config())

    def shutdown(self) -> None:
        """Stop background work before the app exits (committed text is already saved)."""
        self.dictation.shutdown()
        self.jobs.shutdown()

    # --- settings --------------------------------------------------------------------

    def apply_settings(self, settings: Settings) -> str | None:
        """Save and use `settings` at once; reload the model in the background if needed.

        Returns a user-facing error when saving failed (the settings still apply).
        """
        reload = settings.engine_key() != self.settings.engine_key()
        self.settings = copy.deepcopy(settings)
        error = None
        try:
            self.parts.settings_store.save(self.settings)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            error = f"Settings could not be saved ({reason}); they apply until you quit."
        if reload:
            self.models.load(self.engine_config())
        self.settings_changed.emit(self.settings)
        return error

    def engine_config(self) -> EngineConfig:
        model = self.settings.model
        return EngineConfig(model.name or None, Precision(model.precision), model.provider)

    def decode_options(self, for_files: bool) -> DecodeOptions:
        decode = self.settings.decode
        return DecodeOptions(
            task=Task(decode.task),
            language=decode.language,
            beam_size=decode.file_beam_size if for_files else 1,
            initial_prompt=decode.initial_prompt or None,
            word_timestamps=for_files,  # file results show and export word times (about +7 % CPU)
        )

    def input_devices(self) -> list[InputDevice]:
        try:
            return self.parts.devices()
        except Exception:  # no PortAudio: the picker is just empty; recording says why
            return []

    def set_input_device(self, name: str | None) -> None:
        if name != self.settings.dictation.input_device:
            settings = copy.deepcopy(self.settings)
            settings.dictation.input_device = name
            self.apply_settings(settings)

    # --- files ------------------------------------------------------------------------

    def add_files(self, paths: list[Path]) -> int:
        return len(self.jobs.add(paths))

    def render(self, fmt: str, transcript: FileTranscript, subtitles: SubtitleOptions | None = None) -> str:
        return self.parts.exporter.render(fmt, transcript, subtitles)

    def export(self, fmt: str, transcript: FileTranscript, target: Path,
               subtitles: SubtitleOptions | None = None) -> Path:
        """`subtitles`: word-level SRT/VTT cues (transcripts with word times)."""
        return self.parts.exporter.write(fmt, transcript, target, subtitles)

    def _dictation_request(self) -> tuple[AudioSource, DecodeOptions, VoiceDetection]:
        source = AudioSource(device=self.settings.dictation.input_device)
        chosen = self.settings.dictation
        voice = VoiceDetection(chosen.vad_sensitivity, chosen.min_silence_s, chosen.speech_pad_s)
        return source, self.decode_options(False), voice

    def _file_request(self) -> tuple[EngineConfig, DecodeOptions]:
        return self.engine_config(), self.decode_options(True)

    def _save_file_transcript(self, job: object) -> None:
        transcript = getattr(job, "transcript", None)
        if isinstance(transcript, FileTranscript):
            from app.settings.history import EntryKind

            self.history.create(
                EntryKind.FILE, transcript.path.name, str(transcript.path), transcript.text
            )
            self.history_changed.emit()

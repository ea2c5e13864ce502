"""The one object the widgets talk to: settings, model, dictation, file jobs and history."""

from __future__ import annotations

import copy
import logging
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal

from app.audio.microphones import Microphone
from app.controller.desktop.integration import options_from_settings
from app.controller.dictation import DictationController
from app.controller.jobs import JobQueue
from app.controller.microphone_test import CaptureProbe, MicrophoneTest, ProbeOpener
from app.controller.model_downloads import ModelDownloads
from app.controller.model_library import ModelLibrary
from app.controller.model_manager import ModelManager
from app.controller.playback import PlaybackController
from app.controller.ports import (
    AudioDecoder,
    AudioSource,
    DeviceLister,
    DictationFactory,
    EngineConfig,
    EngineLoader,
    FileTranscript,
    ModelCatalog,
    TranscriptExporter,
)
from app.controller.record_display import RecordDisplayState
from app.controller.recovery import DictationRecovery
from app.controller.states import JobState, ModelState
from app.controller.watched_files import WatchedFiles, WatchOptions
from app.dictation.audio_journal import LeftoverAudio, recovery_dir
from app.engine.export.subtitles import SubtitleOptions
from app.engine.types import DecodeOptions, Precision, Task
from app.history.store import HistoryStore
from app.settings.schema import DictationSettings, Settings
from app.settings.store import SettingsStore

log = logging.getLogger(__name__)


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
    recovery_dir: Path | None = None
    """Where dictations journal their audio for crash recovery (None: the user data dir's)."""
    watch: WatchOptions = field(default_factory=WatchOptions)
    """How the watch folders (Settings' window.watch_folders) are polled."""
    level_probe: ProbeOpener = CaptureProbe
    """Opens a microphone for "Test microphone" (tests pass a stand-in)."""


class AppController(QObject):
    """The one object the widgets talk to: settings, the model, dictation, file jobs, the models
    API (`library`), the record bar's display state and the history; parts come from `AppParts`."""

    settings_changed = Signal(object)  # Settings
    notice = Signal(str)  # a message the window shows once (e.g. a corrupt settings file)
    history_changed = Signal()
    _history_stored = Signal()  # from the history's writer thread: queued writes reached the disk

    def __init__(self, parts: AppParts, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.parts = parts
        loaded = parts.settings_store.load()
        self.settings: Settings = loaded.settings
        notices = [n for n in (loaded.notice, parts.history.notice) if n]
        self.startup_notice = " ".join(notices) or None
        self.history = parts.history
        self._history_stored.connect(self.history_changed)
        parts.history.on_stored = self._history_stored.emit
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
        self.watched = WatchedFiles(self.jobs, parts.history, parts.exporter, parts.watch, self)
        self.watched.files_not_written.connect(self.notice)
        self.watched.names_shortened.connect(self.notice)
        self.record_display = RecordDisplayState(self.dictation, self.models, self)
        self.downloads = ModelDownloads(self)
        self.library = ModelLibrary(parts.catalog, self._models_in_use, self)
        self._apply_download_settings()
        self.idle_ms_per_minute = 60_000  # a test shortens the minute; users set the minutes
        self.idle_timer = QTimer(self, singleShot=True)
        self.idle_timer.timeout.connect(self._unload_if_idle)
        self.models.state_changed.connect(lambda _s: self._restart_idle_timer())
        self.dictation.state_changed.connect(lambda *_: self._restart_idle_timer())
        self.recovery_root = parts.recovery_dir or recovery_dir()
        self.dictation.recovery_dir = self.recovery_root
        self.dictation.keep_audio = lambda: self.settings.dictation.keep_audio
        self.playback = PlaybackController(parts.history)
        self.microphone_test = MicrophoneTest(parts.level_probe, self)
        self.dictation.opening.connect(self.microphone_test.stop)  # recording closes the test first
        self.recovery = DictationRecovery(self.recovery_root, self.jobs, parts.history, self.history_changed.emit)
        self.dictation.history_changed.connect(self.history_changed)
        self._apply_text_rules()

    def start(self) -> None:
        """Begin loading the model in the background (call after the window is shown)."""
        self.models.load(self.engine_config())
        self.watched.set_folders(self.settings.window.watch_folders)

    def shutdown(self) -> None:
        """Stop background work before the app exits (committed text is already saved)."""
        self.dictation.shutdown()
        self.watched.stop()
        for job in self.jobs.shutdown():  # stopped by the quit: their text so far is kept, as Cancel keeps it
            self._save_file_transcript(job)
        self.downloads.cancel_all()  # a cancelled download leaves no half-installed model
        if not self.history.flush(1.0):  # locked: the rest stays in its journal for the next start
            log.warning("%d history writes are left in the journal", self.history.pending)

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
        self._apply_download_settings()
        self._apply_text_rules()
        self.watched.set_folders(self.settings.window.watch_folders)
        self._restart_idle_timer()  # a new "unload after" counts from now
        self.settings_changed.emit(self.settings)
        return error

    def _restart_idle_timer(self) -> None:
        """Count the idle time from now; stopped while dictating or when unloading is off."""
        minutes = self.settings.model.unload_idle_min
        if minutes <= 0 or self.dictation.active or self.models.state is not ModelState.READY:
            self.idle_timer.stop()
            return
        self.idle_timer.start(minutes * self.idle_ms_per_minute)  # (re)starts the countdown

    def _unload_if_idle(self) -> None:
        if not self.dictation.active:
            self.models.unload()
            self.jobs.release_engine()  # the file jobs' own copy of the model goes too

    def _apply_text_rules(self) -> None:
        """The post-processing the next dictation applies to what it shows, stores and types."""
        self.dictation.postprocess = options_from_settings(self.settings.output)[0].output.postprocess

    def _apply_download_settings(self) -> None:
        self.downloads.mirror = self.settings.downloads.mirror
        self.downloads.token = self.settings.downloads.token

    def _models_in_use(self) -> set[str]:
        model = self.settings.model
        return {name for name in (model.name, model.file_name) if name}

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
            vocabulary=tuple(decode.vocabulary),
            vocabulary_boost=decode.vocabulary_boost,
            word_timestamps=for_files,  # file results show and export word times (a little more CPU)
        )

    def input_devices(self, rescan: bool = False) -> list[Microphone]:
        """The input devices; `rescan` makes PortAudio look again (a sound server started
        later, a microphone plugged in): only while no dictation holds a stream open."""
        try:
            return self.parts.devices(rescan and not self.dictation.active)
        except Exception:  # no PortAudio: the picker is just empty; recording says why
            log.exception("Could not list the input devices")
            return []

    def set_input_device(self, name: str | None) -> None:
        if name != self.settings.dictation.input_device:
            settings = copy.deepcopy(self.settings)
            settings.dictation.input_device = name
            log.info("input device: %s", name or "system default")
            self.apply_settings(settings)
        if self.microphone_test.running:  # the test goes on with the microphone just chosen
            self.microphone_test.start(name)

    # --- crash recovery -----------------------------------------------------------------

    def leftover_audio(self) -> list[LeftoverAudio]:
        """Audio of dictations that were killed before it was transcribed (oldest first)."""
        return self.recovery.leftover_audio()

    def recover(self, leftover: LeftoverAudio) -> None:
        """Transcribe it as a file job, into the killed session's History entry (recovery.py)."""
        self.recovery.recover(leftover)

    def discard_leftover(self, leftover: LeftoverAudio) -> None:
        self.recovery.discard(leftover)

    # --- files ------------------------------------------------------------------------

    def add_files(self, paths: list[Path]) -> int:
        return len(self.jobs.add(paths))

    def render(self, fmt: str, transcript: FileTranscript, subtitles: SubtitleOptions | None = None) -> str:
        return self.parts.exporter.render(fmt, transcript, subtitles)

    def export(
        self, fmt: str, transcript: FileTranscript, target: Path, subtitles: SubtitleOptions | None = None
    ) -> Path:
        """`subtitles`: word-level SRT/VTT cues (transcripts with word times)."""
        return self.parts.exporter.write(fmt, transcript, target, subtitles)

    def _dictation_request(self) -> tuple[AudioSource, DecodeOptions, DictationSettings]:
        chosen = copy.copy(self.settings.dictation)  # the session keeps what it started with
        return AudioSource(device=chosen.input_device), self.decode_options(False), chosen

    def file_engine_config(self) -> EngineConfig:
        """The model for file jobs: Settings' `file_name`, else the live one."""
        model = self.settings.model
        return EngineConfig(model.file_name or model.name or None, Precision(model.precision), model.provider)

    def _file_request(self) -> tuple[EngineConfig, DecodeOptions]:
        return self.file_engine_config(), self.decode_options(True)

    def _save_file_transcript(self, job: object) -> None:
        transcript = getattr(job, "transcript", None)
        leftover = self.recovery.leftover_of(job)
        if isinstance(transcript, FileTranscript) and leftover is not None:
            self.recovery.save(leftover, transcript)
        elif isinstance(transcript, FileTranscript):
            from app.history.store import EntryKind, TimedText

            times = tuple(TimedText(s.start, s.end, s.text.strip()) for s in transcript.segments if s.text.strip())
            stopped = getattr(job, "state", None) == JobState.CANCELLED  # a kept text has times: > 0
            stopped_at_s = max([getattr(job, "done_s", 0.0), *(t.end for t in times)]) if stopped else 0.0
            self.history.create(
                EntryKind.FILE,
                transcript.path.name,
                str(transcript.path),
                transcript.text,
                times,
                stopped_at_s=stopped_at_s,
            )
            self.history_changed.emit()
        self.recovery.finish(job)

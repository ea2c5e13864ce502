"""What the controller needs from the engine, the audio files and the dictation worker.

Small Protocols and plain data, so the controller and the widgets can be built and tested
against any implementation; `app.composition` adapts the real packages to them.
Audio arrays are mono float32 at 16 kHz; times are seconds from the start of the audio.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from app.audio.microphones import Microphone as Microphone  # the views list these
from app.dictation.decoder_port import WindowDecoder
from app.dictation.events import DictationEvent
from app.engine.models.import_steps import StepCallback
from app.engine.types import (
    CancelToken,
    DecodeOptions,
    Precision,
    Segment,
    Timings,
    TranscriptionInfo,
)
from app.settings.schema import DictationSettings

if TYPE_CHECKING:  # NumPy and the engine's detectors load with the model, after the window is up
    import numpy as np
    from numpy.typing import NDArray

    from app.engine.export.subtitles import SubtitleOptions
    from app.engine.transcribe.speech_map import SpeechDetector

ProgressCallback = Callable[[float, float], None]
"""(audio seconds done, audio seconds in total), called from the transcribing thread."""


class Engine(WindowDecoder, Protocol):
    """A loaded model: files are transcribed whole (`transcribe`); live dictation decodes one
    window at a time (`decode_window`, `tokenizer`, from `WindowDecoder`)."""

    def transcribe(
        self,
        audio: NDArray[np.float32] | Iterable[NDArray[np.float32]],
        options: DecodeOptions,
        cancel: CancelToken | None = None,
        on_progress: ProgressCallback | None = None,
        *,
        duration_s: float | None = None,
        speech: SpeechDetector | None = None,
    ) -> tuple[Iterator[Segment], TranscriptionInfo]:
        """`audio`: one array or chunks in order; `duration_s`: the expected length (progress);
        `speech`: a voice detector so that windows without speech are skipped."""
        ...


@dataclass(frozen=True)
class EngineConfig:
    """What to load. `model` None = the bundled default; `provider` is a short name ("cpu",
    "cuda", ...), None = the CPU."""

    model: str | None
    precision: Precision
    provider: str | None


@dataclass(frozen=True)
class EngineDescription:
    """What was actually loaded (after `auto` and provider fallback), for the status bar."""

    model: str
    precision: str
    provider: str
    multilingual: bool = False
    note: str = ""
    """A one-line remark, e.g. why the provider fell back to CPU."""


@dataclass(frozen=True)
class LoadedEngine:
    """A loaded engine and what was actually loaded (for the status bar)."""

    engine: Engine
    description: EngineDescription


EngineLoader = Callable[[EngineConfig], LoadedEngine]
"""Loads (and converts if needed) a model; slow; called off the GUI thread."""


@dataclass(frozen=True)
class ModelInfo:
    """An installed model: its name, whether it knows languages other than English, a short detail."""

    name: str
    multilingual: bool
    detail: str = ""


class ModelCatalog(Protocol):
    """The installed models on disk: list, import, remove, and which precisions a provider runs."""

    def list_models(self) -> list[ModelInfo]: ...

    def import_folder(self, path: Path, name: str | None = None, on_step: StepCallback | None = None) -> ModelInfo:
        """Install the model folder at `path` as `name` (None: the folder's name); `on_step`
        hears each step (copying, checking, converting, the test transcription)."""
        ...

    def remove(self, name: str) -> None: ...

    def providers(self) -> list[str]: ...

    def precision_support(self, provider: str | None) -> dict[Precision, str | None]:
        """Each precision -> None when it runs on `provider`, else the reason it cannot."""
        ...


# --- live dictation ---------------------------------------------------------------------


@dataclass(frozen=True)
class AudioSource:
    """Where dictation audio comes from: a capture device (None = default) or a replayed file."""

    device: str | None = None
    replay_file: Path | None = None
    realtime: bool = True


@dataclass(frozen=True)
class DictationRequest:
    """`settings`: how utterances are cut and joined, as chosen in the settings (a copy; its
    `input_device` is not read: `source` says where the audio comes from); `recovery_dir`:
    journal the session's audio there for crash recovery (None = don't); `entry_id`: the
    session's History entry, where recovered text goes; `keep_audio_path`: also write the
    session's audio there (16 kHz WAV) for playback while the entry exists (None = don't);
    `commands`: the decoder also listens for spoken commands in short utterances."""

    engine: Engine
    source: AudioSource
    options: DecodeOptions
    settings: DictationSettings = field(default_factory=DictationSettings)
    recovery_dir: Path | None = None
    entry_id: int | None = None
    keep_audio_path: Path | None = None
    commands: bool = False


class DictationSession(Protocol):
    """One live dictation session; its events go to the `emit` it was opened with."""

    def start(self) -> None: ...

    def stop(self) -> None:
        """Finish: decode what is buffered, commit it, then send SUMMARY (the last event)."""
        ...

    def cancel(self) -> None: ...

    def abandon(self) -> None:
        """Stop at once, as `cancel` does, but keep the audio not transcribed yet for the next
        start to offer (the app quits: a logout, a signal, the Quit menu)."""
        ...

    def join(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for the worker thread to end; True if it did."""
        ...

    def level(self) -> float:
        """The latest input level, 0..1 (peak of the last block), safe from any thread."""
        ...


DictationFactory = Callable[[DictationRequest, Callable[[DictationEvent], None]], DictationSession]
"""Builds a session whose events go to the callback (called from a worker thread)."""


DeviceLister = Callable[[bool], list[Microphone]]
"""Lists input devices; with True, PortAudio enumerates them again first."""


# --- files --------------------------------------------------------------------------------


@dataclass
class FileAudio:
    """A file being decoded as it is transcribed: `chunks` ([n] float32 16 kHz, in order),
    `duration_s` from the container (None if it does not say), a voice detector for it."""

    chunks: Iterator[NDArray[np.float32]]
    duration_s: float | None
    speech: SpeechDetector | None = None


AudioDecoder = Callable[[Path], FileAudio]
"""Opens any audio/video file for streaming; raises with a user-facing message."""


@dataclass
class FileTranscript:
    """A finished file job. `duration_s` is the audio length in seconds."""

    path: Path
    segments: list[Segment]
    language: str
    duration_s: float
    model: str
    precision: str
    language_probability: float = 1.0
    timings: Timings = field(default_factory=Timings)

    @property
    def text(self) -> str:
        return "".join(s.text for s in self.segments).strip()


EXPORT_FORMATS: Sequence[str] = ("txt", "srt", "vtt", "json")


class TranscriptExporter(Protocol):
    """Renders a file transcript as txt/srt/vtt/json/... and writes it to disk."""

    def render(self, fmt: str, transcript: FileTranscript, subtitles: SubtitleOptions | None = None) -> str: ...

    def write(
        self, fmt: str, transcript: FileTranscript, target: Path, subtitles: SubtitleOptions | None = None
    ) -> Path:
        """Write atomically to `target` (`.fmt` added if missing); raises with a message."""
        ...

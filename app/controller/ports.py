"""What the controller needs from the engine, the audio files and the dictation worker.

Small Protocols and plain data, so the controller and the widgets can be built and tested
against any implementation; `app.composition` adapts the real packages to them.
Audio arrays are mono float32 at 16 kHz; times are seconds from the start of the audio.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from app.dictation.decoder_port import WindowDecoder
from app.engine.types import (
    CancelToken,
    DecodeOptions,
    Precision,
    Segment,
    Timings,
    TranscriptionInfo,
)

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

    def import_folder(self, path: Path, name: str | None = None) -> ModelInfo: ...

    def remove(self, name: str) -> None: ...

    def providers(self) -> list[str]: ...

    def precision_support(self, provider: str | None) -> dict[Precision, str | None]:
        """Each precision -> None when it runs on `provider`, else the reason it cannot."""
        ...


# --- live dictation ---------------------------------------------------------------------


class DictationEventKind(enum.Enum):
    """What a live session reports: tentative text, committed text, an utterance's end, an error, its end."""

    TENTATIVE = "tentative"
    COMMIT = "commit"
    FINAL = "final"
    ERROR = "error"
    ENDED = "ended"
    """The session stopped (after its flush) or its replayed file ran out."""


@dataclass(frozen=True)
class DictationEvent:
    """One update. For COMMIT/FINAL, `text` is the new committed delta (never changed later);
    for TENTATIVE, the whole current tentative tail; for ERROR, a user-facing message."""

    kind: DictationEventKind
    text: str = ""
    utterance: int = 0
    audio_start_s: float = 0.0
    audio_end_s: float = 0.0
    latency_ms: float | None = None


@dataclass(frozen=True)
class AudioSource:
    """Where dictation audio comes from: a capture device (None = default) or a replayed file."""

    device: str | None = None
    replay_file: Path | None = None
    realtime: bool = True


@dataclass(frozen=True)
class VoiceDetection:
    """How utterances are cut and joined, as chosen in the settings: `sensitivity` 0..1 (higher
    hears quieter speech), `min_silence_s` (a pause this long ends an utterance), `speech_pad_s`
    (audio kept before speech), in seconds; `close_sentences`: end punctuation between utterances
    and at the session's end (PolicyOptions.close_sentences)."""

    sensitivity: float = 0.5
    min_silence_s: float = 0.5
    speech_pad_s: float = 0.3
    close_sentences: bool = True


@dataclass(frozen=True)
class DictationRequest:
    """`recovery_dir`: journal the session's audio there for crash recovery (None = don't);
    `entry_id`: the session's History entry, where recovered text goes; `keep_audio_path`: also
    write the session's audio there (16 kHz WAV) for playback while the entry exists (None = don't)."""

    engine: Engine
    source: AudioSource
    options: DecodeOptions
    voice: VoiceDetection = VoiceDetection()
    recovery_dir: Path | None = None
    entry_id: int | None = None
    keep_audio_path: Path | None = None


class DictationSession(Protocol):
    """One live dictation session; its events go to the `emit` it was opened with."""

    def start(self) -> None: ...

    def stop(self) -> None:
        """Finish: decode what is buffered, commit it, then send ENDED."""
        ...

    def cancel(self) -> None: ...

    def join(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for the worker thread to end; True if it did."""
        ...

    def level(self) -> float:
        """The latest input level, 0..1 (peak of the last block), safe from any thread."""
        ...


DictationFactory = Callable[[DictationRequest, Callable[[DictationEvent], None]], DictationSession]
"""Builds a session whose events go to the callback (called from a worker thread)."""


@dataclass(frozen=True)
class InputDevice:
    """An audio input device by name; `is_default` for the system's default one."""

    name: str
    is_default: bool = False
    label: str = ""
    """What menus call it (the sound server's description); `name` is what is stored."""

    @property
    def shown_name(self) -> str:
        return self.label or self.name


DeviceLister = Callable[[bool], list[InputDevice]]
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

    def write(self, fmt: str, transcript: FileTranscript, target: Path,
              subtitles: SubtitleOptions | None = None) -> Path:
        """Write atomically to `target` (`.fmt` added if missing); raises with a message."""
        ...

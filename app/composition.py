"""The composition root: the only place that picks concrete classes for the app.

Heavy imports (onnxruntime, the engine) happen inside the functions, on first use, which is
off the GUI thread for model loading, so the window appears before they are paid for.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from app.controller.app_controller import AppParts
from app.controller.ports import (
    DictationEvent,
    DictationRequest,
    DictationSession,
    EngineConfig,
    EngineDescription,
    FileTranscript,
    InputDevice,
    LoadedEngine,
    ModelInfo,
)
from app.engine.types import Precision
from app.settings.history import HistoryStore
from app.settings.store import SettingsStore


def build_parts(
    settings_path: Path | None = None, history_path: Path | None = None
) -> AppParts:
    return AppParts(
        settings_store=SettingsStore(settings_path),
        history=HistoryStore(history_path),
        engine_loader=load_engine,
        dictation_factory=open_dictation,
        audio_decoder=decode_audio,
        exporter=TranscriptExporter(),
        catalog=ModelCatalog(),
        devices=list_input_devices,
    )


# --- engine -------------------------------------------------------------------------------


def load_engine(config: EngineConfig) -> LoadedEngine:
    from app.engine.loader import load_engine as real_load

    engine = real_load(config.model, config.precision, config.provider)
    return LoadedEngine(engine, describe_engine(engine, config))


def describe_engine(engine: Any, config: EngineConfig) -> EngineDescription:
    def attr(*names: str, default: Any = None) -> Any:
        for name in names:
            value = getattr(engine, name, None)
            if value is not None:
                return value
        return default

    precision = attr("precision", default=config.precision)
    return EngineDescription(
        model=str(attr("model_name", "name", default=config.model or "tiny.en")),
        precision=getattr(precision, "value", str(precision)),
        provider=str(attr("provider", default=config.provider or "CPUExecutionProvider")),
        multilingual=bool(attr("is_multilingual", "multilingual", default=False)),
        note=str(attr("fallback_note", default="") or ""),
    )


class ModelCatalog:
    def list_models(self) -> list[ModelInfo]:
        from app.engine import model_store

        return [_model_info(m) for m in model_store.list_models()]

    def import_folder(self, path: Path, name: str | None = None) -> ModelInfo:
        from app.engine import model_store

        return _model_info(model_store.import_model(path, name))

    def remove(self, name: str) -> None:
        from app.engine import model_store

        model_store.remove_model(name)

    def providers(self) -> list[str]:
        try:
            from app.engine.sessions import available_providers

            return list(available_providers())
        except ImportError:
            return ["CPUExecutionProvider"]

    def precision_support(self, provider: str | None) -> dict[Precision, str | None]:
        cpu_only = "runs on the CPU only"
        unsupported = {
            "CUDAExecutionProvider": {Precision.INT8: cpu_only},
            "DmlExecutionProvider": {Precision.INT8: cpu_only, Precision.INT4: cpu_only},
            "CoreMLExecutionProvider": {Precision.INT8: cpu_only, Precision.INT4: cpu_only},
        }.get(provider or "", {})
        return {p: unsupported.get(p) for p in Precision}


def _model_info(model: Any) -> ModelInfo:
    name = str(getattr(model, "name", model))
    multilingual = bool(getattr(model, "multilingual", getattr(model, "is_multilingual", False)))
    size = getattr(model, "size", "") or ""
    return ModelInfo(name, multilingual, "multilingual" if multilingual else str(size))


# --- files --------------------------------------------------------------------------------


def decode_audio(path: Path) -> NDArray[np.float32]:
    from app.audio.file_decoder import decode_audio as real_decode

    return real_decode(path)


class TranscriptExporter:
    def render(self, fmt: str, transcript: FileTranscript) -> str:
        from app.engine.formats import render

        return str(render(fmt, transcript.segments, _meta(transcript)))

    def write(self, fmt: str, transcript: FileTranscript, output_dir: Path) -> Path:
        from app.engine.formats import write_transcript

        path = write_transcript(
            fmt, transcript.segments, _meta(transcript), output_dir, transcript.path.stem
        )
        return Path(path)


def _meta(transcript: FileTranscript) -> Any:
    from app.engine.formats import TranscriptMeta

    return TranscriptMeta(
        file=str(transcript.path),
        model=transcript.model,
        precision=transcript.precision,
        language=transcript.language,
        duration_s=transcript.duration_s,
    )


# --- live dictation -----------------------------------------------------------------------


def open_dictation(request: DictationRequest, emit: Any) -> DictationSession:
    from app.controller.live import open_live_session

    return open_live_session(request, emit)


def list_input_devices() -> list[InputDevice]:
    from app.audio import capture

    return [InputDevice(d.name, bool(getattr(d, "is_default", False))) for d in capture.list_input_devices()]


__all__ = ["DictationEvent", "build_parts"]

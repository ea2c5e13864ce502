"""Load a model by name or path at a precision, converting (once, cached) when needed."""

from __future__ import annotations

import logging
import time
from pathlib import Path

from app.engine.models.precisions import resolve_precision
from app.engine.models.store import ModelStore
from app.engine.runtime.ort_sessions import SessionConfig, available_providers
from app.engine.runtime.whisper_runtime import WhisperRuntime
from app.engine.transcribe.whisper_engine import WhisperEngine
from app.engine.types import Precision

log = logging.getLogger(__name__)


def load_engine(
    model: str | Path | None = None,
    precision: Precision = Precision.AUTO,
    provider: str | None = None,
    threads: int | None = None,
    store: ModelStore | None = None,
    spinning: bool | None = None,
) -> WhisperEngine:
    """Load `model` (None = the bundled tiny.en) ready to decode. `spinning`: the worker threads
    always spin (True) or always sleep between ops (False); None follows the machine's load."""
    start = time.perf_counter()
    store = store or ModelStore()
    provider = (provider or "cpu").lower()
    unavailable = None
    if provider not in available_providers():
        # a settings file from a machine with a GPU, or `--provider cuda` here: the CPU, named
        unavailable = f"{provider} is not available in this onnxruntime build; using the CPU"
        provider = "cpu"
    chosen = resolve_precision(precision, provider)
    entry = store.resolve(model)
    folder = store.converted(entry, chosen)
    config = SessionConfig(provider, threads or 0, spinning)
    try:
        runtime = WhisperRuntime(folder, config)
    except Exception:  # onnxruntime and tokenizers raise their own types; a damaged file is one cause
        log.exception("the converted %s in %s did not load; checking its files", entry.name, folder)
        repaired = store.repair(entry, chosen, folder)
        if repaired is None:
            raise  # the files are as written: not damage, so no rebuild would help
        runtime = WhisperRuntime(repaired, config)
    if unavailable is not None:  # the sessions were asked for the CPU: no reason of their own
        runtime.fallback_reason = unavailable
    seconds = time.perf_counter() - start
    log.info(
        "model %s loaded: %s on %s in %.2f s from %s%s",
        entry.name,
        chosen.value,
        runtime.provider,
        seconds,
        folder,
        f" ({runtime.fallback_reason})" if runtime.fallback_reason else "",
    )
    return WhisperEngine(runtime, entry.name, chosen, seconds)

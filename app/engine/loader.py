"""Load a model by name or path at a precision, converting (once, cached) when needed."""

from __future__ import annotations

import logging
import time
from pathlib import Path

from app.engine.model import WhisperEngine
from app.engine.model_store import ModelStore
from app.engine.runtime import WhisperRuntime
from app.engine.sessions import SessionConfig, available_providers
from app.engine.types import Precision

# From bench/compare.py on the 2-core reference machine (README "Performance"): int8 (per-row
# int8 encoder, 8-bit decoder) keeps fp32's WER on the English clips (tiny.en 5.59 %, 9 of 10
# clips token-identical; base 12.29 against fp32's 11.73 and faster-whisper int8's 12.85) at
# about 0.5x faster-whisper int8's time on tiny.en and 0.42x on base. int4 is faster still but
# loses 1.7 WER points on tiny.en, past the 0.5-point budget. int8-accurate chooses words on exact
# scores (base: 9 of 10 clips identical to fp32 against int8's 8) with the same WER, but it is
# slower (tiny.en greedy 2 %, beam 5 12 %) and holds the fp16 embedding table too (tiny.en peak
# RSS 283 against 266 MB; faster-whisper int8 271-290 MB): the choice for fp32's text, not the default.
# int8-small (int8 with a 4-bit vocabulary table, 10.6 MB less xz'd, the bundle's lever) costs 0.4 WER
# points at beam 5 on the shared + espeak clips (2.80 -> 3.20 %) and 1.4 on the robustness classes
# (8.13 -> 9.49; bench/vocab_formats.py), past the 0.2-point budget for a default.


AUTO_CPU_PRECISION = Precision.INT8
AUTO_GPU_PRECISION = Precision.FP16

log = logging.getLogger(__name__)


def resolve_precision(precision: Precision, provider: str) -> Precision:
    """`auto` -> the benchmark's pick for the provider; fp16 only pays on GPU providers."""
    if precision is not Precision.AUTO:
        return precision
    return AUTO_CPU_PRECISION if provider == "cpu" else AUTO_GPU_PRECISION


def load_engine(model: str | Path | None = None, precision: Precision = Precision.AUTO,
                provider: str | None = None, threads: int | None = None,
                store: ModelStore | None = None) -> WhisperEngine:
    """Load `model` (None = the bundled tiny.en) ready to decode."""
    start = time.perf_counter()
    store = store or ModelStore()
    provider = (provider or "cpu").lower()
    if provider not in available_providers():
        log.warning("provider %s is not available in this onnxruntime build; using the CPU", provider)
        provider = "cpu"
    chosen = resolve_precision(precision, provider)
    entry = store.resolve(model)
    folder = store.converted(entry, chosen)
    config = SessionConfig(provider, threads or 0)
    try:
        runtime = WhisperRuntime(folder, config)
    except Exception:  # onnxruntime and tokenizers raise their own types; a damaged file is one cause
        log.exception("the converted %s in %s did not load; checking its files", entry.name, folder)
        repaired = store.repair(entry, chosen, folder)
        if repaired is None:
            raise  # the files are as written: not damage, so no rebuild would help
        runtime = WhisperRuntime(repaired, config)
    seconds = time.perf_counter() - start
    log.info("model %s loaded: %s on %s in %.2f s from %s%s", entry.name, chosen.value, runtime.provider, seconds,
             folder, f" ({runtime.fallback_reason})" if runtime.fallback_reason else "")
    return WhisperEngine(runtime, entry.name, chosen, seconds)


def engine_from_folder(folder: Path, name: str, precision: Precision) -> WhisperEngine:
    """An engine on converted graphs in `folder`, on the CPU with the default threads."""
    return WhisperEngine(WhisperRuntime(folder, SessionConfig("cpu", 0)), name, precision)

"""onnxruntime sessions: provider choice with a CPU fallback, thread counts, optimized graphs."""

from __future__ import annotations

import functools
import logging
import os
from dataclasses import dataclass
from pathlib import Path

import onnxruntime as ort

from app.engine.runtime.blas_threads import limit_numpy_blas_threads

log = logging.getLogger(__name__)

PROVIDER_NAMES: dict[str, str] = {
    "cpu": "CPUExecutionProvider",
    "cuda": "CUDAExecutionProvider",
    "directml": "DmlExecutionProvider",
    "coreml": "CoreMLExecutionProvider",
}


def available_providers() -> list[str]:
    """Short names ("cpu", "cuda", ...) of the providers this onnxruntime build offers."""
    offered = set(ort.get_available_providers())
    return [short for short, full in PROVIDER_NAMES.items() if full in offered]


def physical_cores() -> int:
    """Physical cores (hyper-threads share execution units, so more threads do not help)."""
    try:
        siblings: set[str] = set()
        for cpu in Path("/sys/devices/system/cpu").glob("cpu[0-9]*/topology/thread_siblings_list"):
            siblings.add(cpu.read_text().strip())
        if siblings:
            return len(siblings)
    except OSError:
        pass
    return max(1, (os.cpu_count() or 2) // 2)


@dataclass(frozen=True)
class SessionConfig:
    """`provider` is a short name; `threads` 0 means one per physical core. `spinning`: worker
    threads busy-wait for the next op while a run lasts, and stop the moment it returns
    (`session.force_spinning_stop`); None: they spin while other programs leave the cores free
    (`WhisperRuntime` follows the machine's load, app/engine/runtime/cpu_load.py).

    Spinning within a run pays: a decoder step is about 150 small ops, and waking a sleeping
    thread for each costs a good share of the decoder's time. Spinning after a run does not: the
    encoder's and the decoder's pools take turns, a pool still spinning steals the core the other
    one needs, and an idle dictation session would burn CPU after every run."""

    provider: str = "cpu"
    threads: int = 0
    spinning: bool | None = None


@functools.cache
def _no_telemetry() -> None:
    """Windows builds log through ETW, which ORT_DISABLE_TELEMETRY (app/__init__.py) does not stop."""
    ort.disable_telemetry_events()


@functools.cache
def _quiet_numpy_blas() -> None:
    """numpy's OpenBLAS threads spin after the log-mel product, on the cores the encoder needs."""
    limit_numpy_blas_threads(1)


def create_session(
    model_path: Path | bytes, config: SessionConfig, data_folder: Path | None = None
) -> tuple[ort.InferenceSession, str, str | None]:
    """Open `model_path` (or a serialized graph whose side files are in `data_folder`); returns
    (session, provider used, one-line reason if it fell back to CPU)."""
    options = ort.SessionOptions()
    if data_folder is not None:
        options.add_session_config_entry("session.model_external_initializers_file_folder_path", str(data_folder))
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.intra_op_num_threads = config.threads or physical_cores()
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    options.add_session_config_entry("session.intra_op.allow_spinning", "0" if config.spinning is False else "1")
    options.add_session_config_entry("session.force_spinning_stop", "1")
    # Memory patterns pre-plan one block per input shape; the decoder's shapes change every step,
    # so the plans pile up: off, a file job's peak RSS is lower at the same speed.
    options.enable_mem_pattern = False
    _quiet_numpy_blas()
    _no_telemetry()
    provider = config.provider.lower()
    full = PROVIDER_NAMES.get(provider)
    if full is None:
        raise ValueError(f"unknown provider {config.provider!r}; choose from {', '.join(PROVIDER_NAMES)}")
    if provider == "cpu":
        return _cpu_session(model_path, options), "cpu", None
    session, reason = _provider_session(model_path, options, provider, full)
    if session is not None:
        return session, provider, None
    log.warning(reason)
    return _cpu_session(model_path, options), "cpu", reason


def _provider_session(
    model_path: Path | bytes, options: ort.SessionOptions, provider: str, full: str
) -> tuple[ort.InferenceSession | None, str]:
    """A session on `full` (onnxruntime's provider name), or None and why not in one line."""
    if full not in ort.get_available_providers():
        return None, f"{provider} is not available in this onnxruntime build; using the CPU"
    try:
        session = ort.InferenceSession(_source(model_path), options, providers=[full, "CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own Fail/RuntimeException types
        log.warning("%s could not load %s", provider, model_path, exc_info=True)
        return None, f"{provider} failed to load the model ({str(exc).splitlines()[0]}); using the CPU"
    if session.get_providers()[0] != full:
        return None, f"{provider} could not be initialised; using the CPU"
    # onnxruntime's own fallback would rebuild the session on the CPU at the first failed run,
    # saying so only on stdout: a failure there raises instead, and the CPU is only ever chosen
    # when the model is opened, with its reason named.
    session.disable_fallback()
    return session, ""


def _cpu_session(model_path: Path | bytes, options: ort.SessionOptions) -> ort.InferenceSession:
    return ort.InferenceSession(_source(model_path), options, providers=["CPUExecutionProvider"])


def _source(model: Path | bytes) -> str | bytes:
    return model if isinstance(model, bytes) else str(model)

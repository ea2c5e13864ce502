"""What this machine can do: time one 30 s window of speech per installed model and precision.

The clip is the shipped self-test recording (`resources/selftest.wav`, 3.6 s of speech) repeated to
30 s, decoded greedily as live dictation does. A model keeps up with live dictation when the
window decodes in at most KEEP_UP_FACTOR of its duration: dictation decodes an utterance again as
it grows, so half of real time leaves room for those repeats. Results are cached in
`<cache>/machine-check.json`, keyed by model, precision and CPU, so each runs once.
"""

from __future__ import annotations

import json
import os
import platform
import time
import wave
from dataclasses import asdict, dataclass

import numpy as np
from numpy.typing import NDArray

from app.engine.models.catalog import find
from app.engine.models.store import ModelStore
from app.engine.types import DecodeOptions, Precision
from app.private_files import private_dir, tighten
from app.resource_files import RESOURCES_DIR

WINDOW_S = 30.0
KEEP_UP_FACTOR = 0.5
SAMPLE_RATE = 16_000
CLIP = RESOURCES_DIR / "selftest.wav"
_CACHE_FILE = "machine-check.json"


@dataclass(frozen=True)
class MachineCheck:
    """`seconds`: wall time to decode the 30 s window; `realtime_factor` = seconds / 30."""

    model: str
    precision: str
    seconds: float

    @property
    def realtime_factor(self) -> float:
        return self.seconds / WINDOW_S

    @property
    def keeps_up(self) -> bool:
        return self.realtime_factor <= KEEP_UP_FACTOR

    def line(self) -> str:
        verdict = "keeps up with live dictation" if self.keeps_up else "too slow for live dictation (files only)"
        return f"{self.seconds:.1f} s per 30 s: {verdict}"


def speech_window() -> NDArray[np.float32]:
    """[480000] float32 at 16 kHz: the self-test clip repeated (0.2 s of silence between)."""
    with wave.open(str(CLIP), "rb") as clip:
        pcm = np.frombuffer(clip.readframes(clip.getnframes()), dtype=np.int16).astype(np.float32) / 32768.0
    unit = np.concatenate([pcm, np.zeros(int(0.2 * SAMPLE_RATE), np.float32)])
    repeats = int(np.ceil(WINDOW_S * SAMPLE_RATE / len(unit)))
    return np.tile(unit, repeats)[: int(WINDOW_S * SAMPLE_RATE)]


def check_model(name: str, precision: Precision, store: ModelStore | None = None) -> MachineCheck:
    """The cached result, else load the model and time one window (seconds; blocks: run it off the GUI)."""
    from app.engine.models.loader import load_engine
    from app.engine.models.precisions import resolve_precision

    store = store or ModelStore()
    precision = resolve_precision(precision, "cpu")
    cache = _read(store)
    key = _key(name, precision)
    if key in cache:
        return _from_row(cache[key])
    engine = load_engine(name, precision, store=store)
    audio = speech_window()
    start = time.perf_counter()
    # greedy, one temperature: the repeated clip must not trigger the fallback's retries
    options = DecodeOptions(beam_size=1, language="en", temperatures=(0.0,), condition_on_previous_text=False)
    segments, _info = engine.transcribe(audio, options)
    list(segments)
    result = MachineCheck(name, precision.value, round(time.perf_counter() - start, 2))
    cache[key] = asdict(result)
    _write(store, cache)
    return result


def cached_checks(store: ModelStore | None = None) -> list[MachineCheck]:
    """Every result measured on this machine so far."""
    cpu = _cpu()
    return [_from_row(row) for key, row in _read(store or ModelStore()).items() if key.endswith(cpu)]


def _from_row(row: dict[str, object]) -> MachineCheck:
    return MachineCheck(str(row["model"]), str(row["precision"]), float(str(row["seconds"])))


def recommend(checks: list[MachineCheck]) -> str | None:
    """The largest model (catalog parameters; others count as 0) that keeps up here, else None."""
    fitting = [c for c in checks if c.keeps_up]
    if not fitting:
        return None
    return max(fitting, key=lambda c: entry.parameters_millions if (entry := find(c.model)) else 0).model


def _cpu() -> str:
    return f"{platform.machine()}-{platform.processor() or 'cpu'}-{os.cpu_count()}"


def _key(name: str, precision: Precision) -> str:
    return f"{name}|{precision.value}|{_cpu()}"


def _read(store: ModelStore) -> dict[str, dict[str, object]]:
    try:
        data = json.loads((store.cache_dir / _CACHE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write(store: ModelStore, cache: dict[str, dict[str, object]]) -> None:
    private_dir(store.cache_dir)
    path = store.cache_dir / _CACHE_FILE
    tmp = path.with_name(f".{_CACHE_FILE}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(cache, indent=1), encoding="utf-8")
    tighten(tmp)
    os.replace(tmp, path)

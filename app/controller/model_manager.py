"""Loads the engine in a background thread and hands it out once ready."""

from __future__ import annotations

import contextlib
import logging
import threading
import time

from PySide6.QtCore import QObject, Qt, Signal

from app.controller.ports import Engine, EngineConfig, EngineDescription, EngineLoader, LoadedEngine
from app.controller.states import ModelState

log = logging.getLogger(__name__)


class ModelManager(QObject):
    """Owns the current engine. `load()` returns at once; the result arrives as a signal.

    A newer `load()` supersedes an older one still running: its result is dropped.
    """

    state_changed = Signal(object)  # ModelState
    loaded = Signal(object)  # EngineDescription
    failed = Signal(str)  # user-facing reason; no model is usable
    kept_previous = Signal(str)  # a reload failed; the previous model is still in use
    _finished = Signal(int, object, str, float)  # generation, LoadedEngine | None, error, seconds

    def __init__(self, loader: EngineLoader, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._loader = loader
        self._generation = 0
        self._state = ModelState.NOT_LOADED
        self._loaded: LoadedEngine | None = None
        self._config: EngineConfig | None = None
        self._loaded_config: EngineConfig | None = None
        self._ready = threading.Condition()
        self.load_seconds = 0.0
        self._finished.connect(self._on_finished, Qt.ConnectionType.QueuedConnection)

    @property
    def state(self) -> ModelState:
        return self._state

    @property
    def config(self) -> EngineConfig | None:
        return self._config

    @property
    def engine(self) -> Engine | None:
        return self._loaded.engine if self._loaded else None

    @property
    def description(self) -> EngineDescription | None:
        return self._loaded.description if self._loaded else None

    def load(self, config: EngineConfig) -> None:
        self._generation += 1
        self._config = config
        self._set_state(ModelState.LOADING)
        thread = threading.Thread(
            target=self._load_in_background,
            args=(self._generation, config),
            name="earshot-model-load",
            daemon=True,
        )
        thread.start()

    def unload(self) -> None:
        """Let the model leave memory (idle); `reload()` or the next `load()` brings it back."""
        if self._state != ModelState.READY or self._loaded is None:
            return
        self._generation += 1
        with self._ready:
            self._loaded = None
        log.info("model %s unloaded after idle time", self._config)
        self._set_state(ModelState.NOT_LOADED)

    def reload(self) -> None:
        """Load the last configuration again after `unload()` (no-op while one is loaded or loading)."""
        if self._state == ModelState.NOT_LOADED and self._config is not None:
            self.load(self._config)

    def wait_ready(self, timeout: float | None = None) -> LoadedEngine | None:
        """Block (not on the GUI thread) until a model is ready; None if loading failed."""
        with self._ready:
            self._ready.wait_for(lambda: self._state != ModelState.LOADING, timeout)
            return self._loaded if self._state == ModelState.READY else None

    def _load_in_background(self, generation: int, config: EngineConfig) -> None:
        started = time.perf_counter()
        try:
            result: LoadedEngine | None = self._loader(config)
            error = ""
        except Exception as exc:  # any loader failure becomes a message, never a crash
            log.exception("loading %s failed", config)
            result, error = None, _describe_load_error(config, exc)
        with contextlib.suppress(RuntimeError):  # the app closed while the model was loading
            self._finished.emit(generation, result, error, time.perf_counter() - started)

    def _on_finished(self, generation: int, result: object, error: str, seconds: float) -> None:
        if generation != self._generation:
            return  # superseded by a newer load()
        if isinstance(result, LoadedEngine):
            with self._ready:
                self._loaded, self._loaded_config = result, self._config
                self.load_seconds = seconds
                self._state = ModelState.READY
                self._ready.notify_all()
            self.state_changed.emit(self._state)
            self.loaded.emit(result.description)
            log.info("dictation ready: %s", result.description.model)  # bench/startup.py waits for it
        elif self._loaded is not None:  # keep the model that works; say what went wrong
            self._config = self._loaded_config
            self._set_state(ModelState.READY)
            self.kept_previous.emit(f"{error} Still using {self._loaded.description.model}.")
        else:
            self._set_state(ModelState.FAILED)
            self.failed.emit(error)

    def _set_state(self, state: ModelState) -> None:
        with self._ready:
            self._state = state
            self._ready.notify_all()
        self.state_changed.emit(state)


def _describe_load_error(config: EngineConfig, exc: Exception) -> str:
    name = config.model or "the bundled model"
    return f"Could not load {name} at {config.precision.value}: {exc}. Pick another model or precision in Settings."

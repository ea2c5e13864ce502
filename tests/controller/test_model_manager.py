"""The model manager's states, on a fake loader (see fake_ports.py for why): a newer load wins
over an older one still running, a failed reload keeps the model in use, idle unload and reload."""

from __future__ import annotations

import threading

from fake_ports import FakeLoader
from pytestqt.qtbot import QtBot

from app.controller.model_manager import ModelManager
from app.controller.ports import EngineConfig, EngineDescription
from app.controller.states import ModelState
from app.engine.types import Precision


def _config(model: str | None) -> EngineConfig:
    return EngineConfig(model, Precision.FP32, None)


def _manager(loader: FakeLoader) -> tuple[ModelManager, list[ModelState], list[EngineDescription]]:
    manager = ModelManager(loader)
    states: list[ModelState] = []
    loaded: list[EngineDescription] = []
    manager.state_changed.connect(states.append)
    manager.loaded.connect(loaded.append)
    return manager, states, loaded


def test_a_newer_load_wins_over_an_older_one_still_running(qtbot: QtBot) -> None:
    loader = FakeLoader()
    loader.gates["slow"] = threading.Event()
    manager, _, loaded = _manager(loader)
    manager.load(_config("slow"))
    manager.load(_config("fast"))
    qtbot.waitUntil(lambda: manager.state is ModelState.READY, timeout=10_000)
    loader.gates["slow"].set()  # the superseded load ends now: its result must be dropped
    qtbot.wait(100)
    assert [d.model for d in loaded] == ["fast"]
    assert manager.description is not None and manager.description.model == "fast"
    assert manager.config == _config("fast")


def test_a_failed_first_load_says_which_model_and_what_to_do(qtbot: QtBot) -> None:
    loader = FakeLoader()
    loader.fail["broken"] = OSError("weights missing")
    manager, states, _ = _manager(loader)
    reasons: list[str] = []
    manager.failed.connect(reasons.append)
    manager.load(_config("broken"))
    qtbot.waitUntil(lambda: manager.state is ModelState.FAILED, timeout=10_000)
    assert states == [ModelState.LOADING, ModelState.FAILED]
    assert reasons == ["Could not load broken at fp32: weights missing. Pick another model or precision in Settings."]
    assert manager.engine is None and manager.wait_ready(0) is None


def test_a_failed_reload_keeps_the_model_in_use(qtbot: QtBot) -> None:
    loader = FakeLoader()
    loader.fail["broken"] = OSError("weights missing")
    manager, _, _ = _manager(loader)
    kept: list[str] = []
    manager.kept_previous.connect(kept.append)
    manager.load(_config("good"))
    qtbot.waitUntil(lambda: manager.state is ModelState.READY, timeout=10_000)
    manager.load(_config("broken"))
    qtbot.waitUntil(lambda: bool(kept), timeout=10_000)
    assert manager.state is ModelState.READY and manager.config == _config("good")
    assert kept[0].endswith("Still using good.")


def test_idle_unload_then_reload_loads_the_same_model_again(qtbot: QtBot) -> None:
    loader = FakeLoader()
    manager, _, _ = _manager(loader)
    manager.load(_config("good"))
    qtbot.waitUntil(lambda: manager.state is ModelState.READY, timeout=10_000)
    manager.unload()
    assert manager.state is ModelState.NOT_LOADED and manager.engine is None
    manager.reload()
    qtbot.waitUntil(lambda: manager.state is ModelState.READY, timeout=10_000)
    assert loader.calls == [_config("good"), _config("good")]

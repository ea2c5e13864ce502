"""An idle live model leaves memory after the set minutes; Record shows "Loading model" and loads
it again. Real controller and tiny.en; the test shortens the minute to 100 ms (the timer is real)."""

from __future__ import annotations

from pathlib import Path

from earshot_testing import DATA_DIR
from PySide6.QtCore import QSettings

from app.composition import build_parts
from app.controller.app_controller import AppController
from app.controller.states import ModelState, RecordState


def started(tmp_path: Path, unload_idle_min: int, ms_per_minute: int = 100) -> AppController:
    """A controller with its settings and history in `tmp_path`, unloading after
    `unload_idle_min` minutes of `ms_per_minute` each, its model loading."""
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "qt"))
    controller = AppController(build_parts(tmp_path / "settings.toml", tmp_path / "history.sqlite3"))
    controller.idle_ms_per_minute = ms_per_minute
    settings = controller.settings
    settings.model.unload_idle_min = unload_idle_min
    controller.apply_settings(settings)
    controller.start()
    return controller


def test_idle_model_is_unloaded_and_record_loads_it_again(qtbot, qapp, tmp_path: Path) -> None:
    controller = started(tmp_path, unload_idle_min=3)  # 300 ms here
    qtbot.waitUntil(lambda: controller.models.state is ModelState.READY, timeout=300_000)
    qtbot.waitUntil(lambda: controller.models.state is ModelState.NOT_LOADED, timeout=10_000)
    assert controller.models.engine is None
    records: list[RecordState] = []
    controller.dictation.state_changed.connect(lambda state, _reason: records.append(state))
    controller.dictation.start()  # Record
    assert records[0] is RecordState.LOADING_MODEL  # the window shows "Loading model"
    qtbot.waitUntil(lambda: controller.models.state is ModelState.READY, timeout=300_000)
    controller.dictation.cancel()
    controller.shutdown()


def test_zero_minutes_keeps_the_model_loaded(qtbot, qapp, tmp_path: Path) -> None:
    controller = started(tmp_path, unload_idle_min=0, ms_per_minute=1)
    qtbot.waitUntil(lambda: controller.models.state is ModelState.READY, timeout=300_000)
    assert not controller.idle_timer.isActive()
    qtbot.wait(200)
    assert controller.models.state is ModelState.READY
    controller.shutdown()


def test_the_file_jobs_copy_of_the_model_leaves_with_the_idle_model(qtbot, qapp, tmp_path: Path) -> None:
    controller = started(tmp_path, unload_idle_min=0)  # kept while the file job runs
    settings = controller.settings
    qtbot.waitUntil(lambda: controller.models.state is ModelState.READY, timeout=300_000)
    controller.jobs.add([DATA_DIR / "espeak_weather.wav"])
    qtbot.waitUntil(lambda: controller.jobs.pending() == 0, timeout=300_000)
    assert controller.jobs.holds_engine  # files run on their own copy of the model
    settings.model.unload_idle_min = 3  # 300 ms here
    controller.apply_settings(settings)
    qtbot.waitUntil(lambda: controller.models.state is ModelState.NOT_LOADED, timeout=10_000)
    assert not controller.jobs.holds_engine
    controller.shutdown()

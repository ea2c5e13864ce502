"""The controller's models API: removing runs off the GUI thread and says how it went; a model
the settings use is refused at once. The catalog is a fake (see fake_ports.py for why fakes):
it records the thread it was called on, which a real model store cannot tell."""

from __future__ import annotations

import threading
from pathlib import Path

from pytestqt.qtbot import QtBot

from app.controller.model_library import ModelLibrary
from app.controller.ports import ModelInfo
from app.engine.models.import_steps import StepCallback
from app.engine.types import Precision


class _Catalog:
    def __init__(self) -> None:
        self.models = [ModelInfo("tiny.en", False), ModelInfo("small", True)]
        self.removed_on: list[str] = []

    def list_models(self) -> list[ModelInfo]:
        return list(self.models)

    def import_folder(self, path: Path, name: str | None = None, on_step: StepCallback | None = None) -> ModelInfo:
        raise ValueError(f"{path.name} is not a Whisper model folder")

    def remove(self, name: str) -> None:
        self.removed_on.append(threading.current_thread().name)
        if name == "tiny.en":
            raise PermissionError("the bundled model cannot be removed")
        self.models = [m for m in self.models if m.name != name]

    def providers(self) -> list[str]:
        return ["cpu"]

    def precision_support(self, provider: str | None) -> dict[Precision, str | None]:
        return dict.fromkeys(Precision)


def test_removing_runs_off_the_gui_thread_and_reports_the_outcome(qtbot: QtBot) -> None:
    catalog = _Catalog()
    library = ModelLibrary(catalog, lambda: {"medium"})
    with qtbot.waitSignal(library.removed, timeout=10_000) as removed:
        assert library.remove("small") is None
    assert removed.args == ["small", ""]
    assert [m.name for m in library.list_models()] == ["tiny.en"]
    assert catalog.removed_on and catalog.removed_on[0] != threading.main_thread().name
    with qtbot.waitSignal(library.removed, timeout=10_000) as refused:
        library.remove("tiny.en")
    assert refused.args == ["tiny.en", "the bundled model cannot be removed"]


def test_a_model_in_use_is_refused_at_once_and_nothing_is_removed(qtbot: QtBot) -> None:
    catalog = _Catalog()
    library = ModelLibrary(catalog, lambda: {"small"})
    assert library.remove("small") == "small is in use; pick another model and apply first."
    assert catalog.removed_on == [] and len(library.list_models()) == 2


def test_an_import_that_fails_says_why(qtbot: QtBot, tmp_path: Path) -> None:
    library = ModelLibrary(_Catalog(), set)
    call = library.import_folder(tmp_path / "holiday photos")
    with qtbot.waitSignal(call.failed, timeout=10_000) as failed:
        pass
    assert failed.args == ["holiday photos is not a Whisper model folder"]

"""The installed models, as the views may use them: list, import, remove, and what a provider
runs. The views go through this, never into the composition's catalog (`controller.parts.catalog`).
Removing deletes up to gigabytes and importing converts, so both run off the GUI thread here and
report back by signal."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from app.controller.background import BackgroundCall
from app.controller.ports import ModelCatalog, ModelInfo
from app.engine.types import Precision


class ModelImport(BackgroundCall):
    """A running import; `step` says which step has started (queued to the GUI thread)."""

    step = Signal(object)  # ImportStep


class ModelLibrary(QObject):
    """`removed(name, error)` follows each `remove()` that started ("" = it is gone)."""

    removed = Signal(str, str)

    def __init__(self, catalog: ModelCatalog, in_use: Callable[[], set[str]], parent: QObject | None = None) -> None:
        """`in_use`: the names of the models the settings use now (live and files)."""
        super().__init__(parent)
        self._catalog, self._in_use = catalog, in_use

    def list_models(self) -> list[ModelInfo]:
        """The installed models (one read of the model folder, milliseconds); raises when the
        store cannot be read."""
        return self._catalog.list_models()

    def providers(self) -> list[str]:
        return self._catalog.providers()

    def precision_support(self, provider: str | None) -> dict[Precision, str | None]:
        """Each precision -> None when it runs on `provider`, else the reason it cannot."""
        return self._catalog.precision_support(provider)

    def import_folder(
        self, folder: Path, name: str | None = None, on_step: Callable[[object], None] | None = None
    ) -> ModelImport:
        """Import (and convert) a model folder as `name` (None: the folder's name) off the GUI
        thread: `on_step(ImportStep)` hears each step as it starts (connected before the work
        starts, so the first is not missed), then the returned call's `succeeded(ModelInfo)` /
        `failed(message)` (delivered once the event loop runs)."""

        def work() -> ModelInfo:
            return self._catalog.import_folder(folder, name, call.step.emit)

        call = ModelImport(work, self)
        if on_step is not None:
            call.step.connect(on_step)
        call.start()
        return call

    def remove(self, name: str) -> str | None:
        """Start removing `name` off the GUI thread (`removed` says how it went); a model in
        use is refused at once: then the one-line reason is returned."""
        if name in self._in_use():
            return f"{name} is in use; pick another model and apply first."
        call = BackgroundCall(lambda: self._catalog.remove(name), self)
        call.succeeded.connect(lambda _result: self._removed(call, name, ""))
        call.failed.connect(lambda error: self._removed(call, name, error))
        call.start()
        return None

    def _removed(self, call: BackgroundCall, name: str, error: str) -> None:
        call.deleteLater()
        self.removed.emit(name, error)

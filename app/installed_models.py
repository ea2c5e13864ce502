"""The installed models as the controller's `ModelCatalog` sees them: the engine's model store
(listing, importing, removing) and which precisions each execution provider can run. The
composition root (`app.composition`) hands it to the controller; the store is opened on first use.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from app.controller.ports import ModelInfo
from app.engine.models.import_steps import StepCallback
from app.engine.types import Precision


class InstalledModels:
    """The engine's model store, plus which precisions each provider can run."""

    def __init__(self) -> None:
        self._opened: Any = None

    @property
    def _store(self) -> Any:
        """The ModelStore, opened on first use (it imports NumPy and the readers: not before the window)."""
        if self._opened is None:
            from app.engine.models.store import ModelStore

            self._opened = ModelStore()
        return self._opened

    def list_models(self) -> list[ModelInfo]:
        return [_model_info(entry.name, entry.source) for entry in self._store.list_models()]

    def import_folder(self, path: Path, name: str | None = None, on_step: StepCallback | None = None) -> ModelInfo:
        entry = self._store.import_model(path, name, on_step)
        return _model_info(entry.name, entry.source)

    def remove(self, name: str) -> None:
        self._store.remove_model(name)

    def providers(self) -> list[str]:
        from app.engine.runtime.ort_sessions import available_providers

        return list(available_providers())

    def precision_support(self, provider: str | None) -> dict[Precision, str | None]:
        reason = "8-bit dynamic quantization runs on the CPU provider only"
        cpu_only = {Precision.INT8: reason, Precision.INT8_ACCURATE: reason, Precision.INT8_SMALL: reason}
        no_4bit = {Precision.INT4: "4-bit runs on CPU and CUDA only"}
        unsupported: dict[Precision, str] = {
            "cpu": {},
            "cuda": cpu_only,
            "directml": cpu_only | no_4bit,
            "coreml": cpu_only | no_4bit,
        }.get(provider or "cpu", {})
        return {p: unsupported.get(p) for p in Precision}


def _model_info(name: str, folder: Path) -> ModelInfo:
    multilingual = _is_multilingual(folder, name)
    return ModelInfo(name, multilingual, "multilingual" if multilingual else "English only")


def _is_multilingual(folder: Path, name: str) -> bool:
    """Multilingual Whisper vocabularies have 51865+ entries (English-only: 51864)."""
    try:
        if (folder / "vocabulary.txt").is_file():  # CTranslate2
            with (folder / "vocabulary.txt").open(encoding="utf-8") as handle:
                return sum(1 for _ in handle) >= 51865
        vocab = json.loads((folder / "config.json").read_text(encoding="utf-8")).get("vocab_size")
        if isinstance(vocab, int):  # Hugging Face
            return vocab >= 51865
    except (OSError, ValueError):
        pass
    return not name.endswith(".en")

"""What is installed: each model's size on disk and the precisions already converted."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from app.engine.models.store import ModelStore

_MARKER = "complete.json"  # written last into a finished converted entry (see model_store)


@dataclass(frozen=True)
class InstalledModel:
    """`size_bytes`: the source folder plus its converted graphs; `precisions`: converted ones."""

    name: str
    source: Path
    bundled: bool
    size_bytes: int
    precisions: tuple[str, ...]


def installed_models(store: ModelStore | None = None) -> list[InstalledModel]:
    store = store or ModelStore()
    rows = []
    for entry in store.list_models():
        converted = _converted_entries(store, entry.name)
        precisions = sorted({p.name.split("-v")[0] for p in converted})
        size = _tree_size(entry.source) + sum(_tree_size(p) for p in converted)
        rows.append(InstalledModel(entry.name, entry.source, entry.bundled, size, tuple(precisions)))
    return rows


def installed_names(store: ModelStore | None = None) -> set[str]:
    return {entry.name for entry in (store or ModelStore()).list_models()}


def _converted_entries(store: ModelStore, name: str) -> list[Path]:
    own = re.compile(re.escape(name) + r"-[0-9a-f]{16}")
    roots = [store.cache_dir / "converted"]
    found = []
    for root in roots:
        for model_dir in root.iterdir() if root.is_dir() else ():
            if own.fullmatch(model_dir.name):
                found += [p for p in model_dir.iterdir() if (p / _MARKER).is_file()]
    if store.prebuilt_dir is not None and (store.prebuilt_dir / name).is_dir():
        found += [p for p in (store.prebuilt_dir / name).iterdir() if (p / _MARKER).is_file()]
    return found


def _tree_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())

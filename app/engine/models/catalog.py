"""The built-in model catalog: the Whisper models Earshot offers to download.

The data is `app/engine/models/data/catalog.json`, versioned in the repository: name, Hugging Face
repository (CTranslate2 folders), languages, download size (MB), RAM per precision (MB) and a
one-line description. Any other repository id can be typed in instead of a catalog name.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from app.engine.convert.weights import ModelFormatError
from app.engine.models.model_names import check_model_name

CATALOG_FILE = Path(__file__).with_name("data") / "catalog.json"
_REPO_ID_PARTS = 2  # "owner/name"


@dataclass(frozen=True)
class CatalogModel:
    """One downloadable model. `download_mb` and `ram_mb` (per precision value) are megabytes."""

    name: str
    repo: str
    languages: str
    download_mb: int
    parameters_millions: int
    ram_mb: dict[str, int]
    description: str

    def ram_for(self, precision: str) -> int:
        """RAM (MB) at `precision` ('fp32', 'fp16', 'int8...'); fp32's figure when not listed."""
        key = "int8" if precision.startswith("int") else precision
        return self.ram_mb.get(key, self.ram_mb["fp32"])


@cache
def catalog() -> tuple[CatalogModel, ...]:
    """The catalog, in the file's order (smallest first)."""
    data = json.loads(CATALOG_FILE.read_text(encoding="utf-8"))
    return tuple(CatalogModel(**row) for row in data["models"])


def find(name: str) -> CatalogModel | None:
    """The catalog entry named `name` or with repository `name`, else None."""
    return next((m for m in catalog() if name in (m.name, m.repo)), None)


def resolve_download(name_or_repo: str) -> tuple[str, str]:
    """(repository id, installed model name) for a catalog name or any `owner/name` repository id.

    A repository outside the catalog installs under its last path part (the model-name rule
    applies: `openai/whisper-small` -> `whisper-small`). One-line ModelFormatError otherwise."""
    if entry := find(name_or_repo):
        return entry.repo, entry.name
    parts = name_or_repo.split("/")
    if len(parts) != _REPO_ID_PARTS or not all(parts):
        names = ", ".join(m.name for m in catalog())
        raise ModelFormatError(f"{name_or_repo!r} is neither a catalog model ({names}) nor a repository id owner/name")
    check_model_name(parts[0].replace("_", "-") or "x")  # the owner part: same characters
    return name_or_repo, check_model_name(parts[1])

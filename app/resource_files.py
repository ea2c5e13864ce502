"""Where the shipped resources are: the repository's (or the PyInstaller bundle's) `resources/`,
beside the `app` package, whatever module asks."""

from __future__ import annotations

from pathlib import Path

RESOURCES_DIR = Path(__file__).resolve().parents[1] / "resources"

"""GUI test fixtures: offscreen Qt and per-test settings, history and QSettings files."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before any QApplication exists

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from app.composition import build_parts
from app.controller.app_controller import AppParts


@pytest.fixture
def app_dirs(tmp_path: Path, qapp: object) -> Iterator[Path]:
    """Settings, history and window geometry all under tmp_path for this test."""
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "qt"))
    yield tmp_path


@pytest.fixture
def parts(app_dirs: Path) -> AppParts:
    """The real parts from `app.composition`: engine (bundled tiny.en), decoder, dictation."""
    return build_parts(app_dirs / "config" / "settings.toml", app_dirs / "data" / "history.sqlite3")

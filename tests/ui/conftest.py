"""GUI test fixtures: offscreen Qt and per-test settings, history and QSettings files."""

from __future__ import annotations

import gc
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before any QApplication exists

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from app.composition import build_parts
from app.controller.app_controller import AppParts
from app.controller.jobs import JobQueue
from app.controller.model_manager import ModelManager
from app.engine.runtime.native_heap import release_free_heap


@pytest.fixture
def app_dirs(tmp_path: Path, qapp: object) -> Iterator[Path]:
    """Settings, history and window geometry all under tmp_path for this test."""
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "qt"))
    yield tmp_path


@pytest.fixture
def parts(app_dirs: Path) -> Iterator[AppParts]:
    """The real parts from `app.composition`: engine (bundled tiny.en), decoder, dictation."""
    yield build_parts(app_dirs / "config" / "settings.toml", app_dirs / "data" / "history.sqlite3")


@pytest.fixture(autouse=True)
def free_closed_windows() -> Iterator[None]:
    """After each test, the models its windows loaded are unloaded (the window's and its file
    jobs' copy). A closed window's objects stay alive (PySide holds the slots connected between
    them on the C++ side, out of reach of Python's collector), and with them the test's models
    (~200 MB each): a whole run would hold every test's models at once and run out of memory."""
    yield
    for holder in [o for o in gc.get_objects() if isinstance(o, ModelManager | JobQueue)]:
        if isinstance(holder, ModelManager):
            holder.unload()  # a model still loading is unloaded after a later test
        else:
            holder.release_engine()
    gc.collect()
    release_free_heap()

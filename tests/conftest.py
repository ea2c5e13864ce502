"""Shared fixtures: isolated user folders, the real bundled tiny.en model, test clips.

Every test session gets its own config/data/cache folders (set before anything imports
platformdirs), so tests never touch a user's settings, history or model cache.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

_SESSION_HOME = Path(tempfile.mkdtemp(prefix="earshot-tests-"))
for _var, _sub in (("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache"),
                   ("EARSHOT_DATA_DIR", "data/earshot"), ("EARSHOT_CACHE_DIR", "cache/earshot"),
                   ("EARSHOT_LOG_DIR", "log/earshot")):
    os.environ[_var] = str(_SESSION_HOME / _sub)
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from slow_tests import is_slow  # noqa: E402


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if is_slow(item.nodeid):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def engine():  # type: ignore[no-untyped-def]
    """The bundled tiny.en at fp32 (converted once per session into the session cache)."""
    from app.engine.models.loader import load_engine
    from app.engine.types import Precision

    return load_engine(precision=Precision.FP32)


@pytest.fixture(scope="session")
def bundled_model_dir() -> Path:
    from app.engine.models.store import bundled_model_dir

    return bundled_model_dir()

"""Shared fixtures: isolated user folders, the real bundled tiny.en model, test clips.

Every test session gets its own config/data/cache folders (set before anything imports
platformdirs), so tests never touch a user's settings, history or model cache.
"""

from __future__ import annotations

import os
import signal
import tempfile
from pathlib import Path

# A suite started under nohup inherits SIGHUP ignored, and Earshot (like any well-behaved
# program) leaves an ignored signal ignored, in itself and in the processes it starts: the
# tests that hang it up would fail, or wait for a stop that never comes. They test the app's
# answer to the signal, so the suite runs with the default disposition.
if hasattr(signal, "SIGHUP") and signal.getsignal(signal.SIGHUP) is signal.SIG_IGN:
    signal.signal(signal.SIGHUP, signal.SIG_DFL)

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


@pytest.fixture(autouse=True)
def free_the_windows_models(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    """After each Qt test, the models its windows and controllers loaded are unloaded (the live
    model and the file jobs' copy). A closed window's objects stay alive (PySide holds the slots
    connected between them on the C++ side, out of reach of Python's collector), and with them
    the test's models (~200 MB each): a whole run would hold every test's models at once and run
    out of memory."""
    yield
    if "qtbot" not in request.fixturenames:
        return
    import gc

    from app.controller.jobs import JobQueue
    from app.controller.model_manager import ModelManager
    from app.engine.runtime.native_heap import release_free_heap

    for holder in [o for o in gc.get_objects() if isinstance(o, ModelManager | JobQueue)]:
        if isinstance(holder, ModelManager):
            holder.unload()  # a model still loading is unloaded after a later test
        else:
            holder.release_engine()
    gc.collect()
    release_free_heap()

"""Earshot: offline desktop dictation with Whisper on onnxruntime."""

import os as _os
from pathlib import Path as _Path

# onnxruntime >= 1.29 sends telemetry from Linux and macOS too (mobile.events.data.microsoft.com)
# and keeps a device id under ~/.cache/Microsoft/DeveloperTools. The switch is read once, when
# onnxruntime is imported, so it is set here: every entry point (CLI, window, self-test, the frozen
# bundle's app/__main__.py) imports this package before anything imports onnxruntime.
_os.environ["ORT_DISABLE_TELEMETRY"] = "1"


def _version() -> str:
    """The version written once, in pyproject.toml: from the installed (or, in a frozen bundle,
    the bundled) package metadata, else read from the source tree's pyproject.toml."""
    from importlib import metadata as _metadata

    try:
        return _metadata.version("earshot")
    except _metadata.PackageNotFoundError:
        pass
    import tomllib

    try:
        pyproject = tomllib.loads((_Path(__file__).resolve().parents[1] / "pyproject.toml").read_text("utf-8"))
        return str(pyproject["project"]["version"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "0+unknown"


def __getattr__(name: str) -> str:
    """`app.__version__`, read on first use: importlib.metadata and the scan of the installed
    packages cost the window's start-up a few tens of milliseconds it does not need."""
    if name == "__version__":
        version = globals()["__version__"] = _version()
        return version
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""Earshot: offline desktop dictation with Whisper on onnxruntime."""

from importlib import metadata as _metadata
from pathlib import Path as _Path


def _version() -> str:
    """The version written once, in pyproject.toml: from the installed (or, in a frozen bundle,
    the bundled) package metadata, else read from the source tree's pyproject.toml."""
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


__version__ = _version()

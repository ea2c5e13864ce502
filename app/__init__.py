"""Earshot: offline desktop dictation with Whisper on onnxruntime."""

from importlib import metadata as _metadata

try:
    __version__ = _metadata.version("earshot")
except _metadata.PackageNotFoundError:  # running from a source tree or a frozen bundle
    __version__ = "0.1.0"

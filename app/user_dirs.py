"""The user's Earshot folders (platformdirs), each overridable by an environment variable (the
tests and the benches give every run its own). This module is the bottom layer: any package may
import it; it imports nothing of the app."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "earshot"


def data_dir() -> Path:
    """Models, the history, recordings, recovery: $EARSHOT_DATA_DIR, else the user data folder."""
    return Path(os.environ.get("EARSHOT_DATA_DIR") or platformdirs.user_data_dir(APP_NAME, appauthor=False))


def cache_dir() -> Path:
    """Converted models and other things rebuilt when lost: $EARSHOT_CACHE_DIR, else the user cache folder."""
    return Path(os.environ.get("EARSHOT_CACHE_DIR") or platformdirs.user_cache_dir(APP_NAME, appauthor=False))

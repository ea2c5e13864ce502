"""Session fixtures for the file-decoder tests (helpers live in media_fixtures.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from media_fixtures import ENCODINGS, SOURCE_CLIP, read_wav_mono, write_audio


@pytest.fixture(scope="session")
def source_clip() -> np.ndarray:
    """The committed reference clip, mono float32 at 16 kHz."""
    return read_wav_mono(SOURCE_CLIP)


@pytest.fixture(scope="session")
def encoded(
    tmp_path_factory: pytest.TempPathFactory, source_clip: np.ndarray
) -> Callable[[str], Path]:
    """`encoded(name)` -> the reference clip encoded as ENCODINGS[name] (made once a session)."""
    folder = tmp_path_factory.mktemp("encoded")
    made: dict[str, Path] = {}

    def make(name: str) -> Path:
        if name not in made:
            enc = ENCODINGS[name]
            made[name] = write_audio(folder / f"clip_{name}{enc.suffix}", source_clip, enc)
        return made[name]

    return make

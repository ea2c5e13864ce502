"""Session fixtures for the dictation tests (helpers live in dictation_helpers.py)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def vad_model():  # type: ignore[no-untyped-def]
    from app.audio.vad import SileroVadModel

    return SileroVadModel()

"""Fixtures for the desktop-output tests: one private Xvfb for the session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from output_desktop import xvfb


@pytest.fixture(scope="session")
def x_display() -> Iterator[str]:
    with xvfb() as display:
        yield display

"""Fixtures for the desktop-output tests: one private Xvfb for the session, target windows."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from output_desktop import Receiver, open_qt_receiver, open_xterm_receiver, xvfb


@pytest.fixture(scope="session")
def x_display() -> Iterator[str]:
    with xvfb() as display:
        yield display


@pytest.fixture
def qt_window(x_display: str, tmp_path: Path) -> Iterator[Receiver]:
    receiver = open_qt_receiver(x_display, tmp_path)
    yield receiver
    receiver.close()


@pytest.fixture
def xterm(x_display: str, tmp_path: Path) -> Iterator[Receiver]:
    receiver = open_xterm_receiver(x_display, tmp_path)
    yield receiver
    receiver.close()

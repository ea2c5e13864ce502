"""Freed memory goes back to the system between windows, so a long dictation session stays flat."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from app.engine.runtime.native_heap import release_free_heap


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(not sys.platform.startswith("linux"),
                    reason="glibc's heap; other C libraries return memory by themselves")
def test_free_heap_pages_are_returned_after_a_window() -> None:
    """The pattern a window leaves: many mid-sized buffers freed while a few later ones live on,
    so glibc cannot shrink its heap from the top and keeps the pages unless trimmed."""
    blocks = [np.ones(12_000, np.float64) for _ in range(4000)]  # 96 KB each: heap, not mmap
    survivors = blocks[9::10]  # every tenth stays alive, pinning the heap's top
    del blocks
    held = _rss_mb()
    assert release_free_heap()
    released = _rss_mb()
    assert held - released > 150, f"RSS {held:.0f} -> {released:.0f} MB after release"
    assert all(block[0] == 1.0 for block in survivors)  # live data untouched

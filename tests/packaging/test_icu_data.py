"""Qt's ICU data library slimmed by packaging/icu_data.py (a copy of the real PySide6 wheel's): from
32 MB to under 2 MB, and Qt, loading the slimmed library, still sorts file names the way the file
dialog shows them (accents, case, numbers in order: ICU's root collation) and upper-cases by locale."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from earshot_testing import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "packaging"))
from icu_data import _data_symbol, read_items, slim_icu_data

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the bundle's ICU is slimmed on Linux")

QT_LIB = Path(__import__("PySide6").__file__).resolve().parent / "Qt" / "lib"
QT_SCRIPT = """
from PySide6.QtCore import QCollator, QCoreApplication, QLocale, Qt
app = QCoreApplication([])
collator = QCollator(QLocale("en_US"))
collator.setNumericMode(True)
collator.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
print("|".join(sorted(["file10.wav", "Zebra.wav", "file2.wav", "apple.wav", "Emile.wav", "\u00c9mile.wav"],
                      key=collator.sortKey)))
print(QLocale("tr_TR").toUpper("istanbul"), QLocale("de_DE").toUpper("stra\u00dfe"))
"""


def test_slimmed_icu_data_is_small_and_qt_still_collates_and_maps_case(tmp_path: Path) -> None:
    for library in QT_LIB.glob("libicu*.so.*"):
        shutil.copy2(library, tmp_path / library.name)
    data = next(tmp_path.glob("libicudata.so.*"))
    assert slim_icu_data(data) > 28_000_000
    assert data.stat().st_size < 2_000_000
    # Qt's own RUNPATH points at the wheel's ICU; LD_LIBRARY_PATH is searched first.
    env = {**os.environ, "LD_LIBRARY_PATH": str(tmp_path), "LD_DEBUG": "libs", "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run([sys.executable, "-c", QT_SCRIPT], env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"trying file={data}" in result.stderr  # Qt really loaded the slimmed library
    assert "Could not create collator" not in result.stderr
    order, upper = result.stdout.splitlines()
    assert order.split("|") == ["apple.wav", "Emile.wav", "\u00c9mile.wav", "file2.wav", "file10.wav", "Zebra.wav"]
    assert upper == "\u0130STANBUL STRASSE"


def test_the_slimmed_package_keeps_its_items_intact(tmp_path: Path) -> None:
    original = next(QT_LIB.glob("libicudata.so.*"))
    shutil.copy2(original, tmp_path / original.name)
    slim_icu_data(tmp_path / original.name)

    def items(path: Path) -> dict[str, bytes]:
        return read_items(path.read_bytes()[_data_symbol(path)[1]:])

    before, after = items(original), items(tmp_path / original.name)
    assert after and all(before[name] == body[:len(before[name])] for name, body in after.items())
    assert any(name.endswith("coll/ucadata.icu") for name in after)

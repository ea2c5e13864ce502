"""The model part of the settings dialog: import errors, the bundled model, precision choices
a provider cannot run. Real model store (its data dir moved to tmp_path)."""

from __future__ import annotations

from pathlib import Path

import pytest
from gui_helpers import open_window
from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItemModel

from app.engine.types import Precision
from app.installed_models import InstalledModels
from app.ui.labels import PRECISION_LABELS
from app.ui.settings_dialog import SettingsDialog


@pytest.fixture
def dialog(qtbot, parts, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> SettingsDialog:
    monkeypatch.setenv("EARSHOT_DATA_DIR", str(tmp_path / "earshot-data"))
    parts.catalog = InstalledModels()  # reads EARSHOT_DATA_DIR: imports land in tmp_path
    window = open_window(qtbot, parts, load=False)
    dialog = SettingsDialog(window.controller, window)
    qtbot.addWidget(dialog)
    return dialog


def test_importing_a_folder_that_is_not_a_model_says_why(qtbot, dialog, tmp_path: Path) -> None:
    folder = tmp_path / "holiday photos"
    folder.mkdir()
    (folder / "beach.jpg").write_bytes(b"\xff\xd8\xff")
    dialog.choose_folder = lambda _parent: str(folder)  # what the user picks in the folder dialog
    dialog.import_button.click()
    assert not dialog.import_button.isEnabled()  # the import runs in the background
    qtbot.waitUntil(dialog.import_button.isEnabled, timeout=60_000)
    assert dialog.message.text().startswith("Import failed: ")
    assert "holiday photos" in dialog.message.text()
    assert [dialog.model_list.item(i).text() for i in range(dialog.model_list.count())] == [
        "tiny.en   English only"
    ]


def test_the_model_in_use_is_not_removed(dialog) -> None:
    dialog.model_list.setCurrentRow(0)
    dialog.remove_button.click()
    assert "in use" in dialog.message.text()
    assert dialog.model_list.count() == 1


def test_precisions_a_provider_cannot_run_are_disabled_with_the_reason(dialog, monkeypatch) -> None:
    assert InstalledModels().precision_support("cuda")[Precision.INT8] is not None
    assert all(reason is None for reason in InstalledModels().precision_support("cpu").values())
    # This machine has only the CPU provider; ask the dialog about CUDA's table directly.
    catalog = dialog.controller.parts.catalog
    monkeypatch.setattr(dialog.provider, "currentData", lambda *_: "cuda")
    monkeypatch.setattr(catalog, "precision_support", InstalledModels().precision_support)
    dialog.precision.setCurrentIndex(dialog.precision.findData("int8"))
    dialog._fill_precisions()
    model = dialog.precision.model()
    assert isinstance(model, QStandardItemModel)
    int8 = model.item(dialog.precision.findData("int8"))
    assert not int8.isEnabled()
    assert int8.toolTip().startswith("Not available: ")
    assert dialog.precision.currentData() == "auto"  # a disabled choice is never kept selected
    assert model.item(dialog.precision.findData("fp16")).isEnabled()
    assert model.item(0).data(Qt.ItemDataRole.ToolTipRole)


def test_every_precision_the_engine_builds_is_offered(dialog) -> None:
    """The settings' list (plain strings: the settings package does not import the engine) names
    every precision the engine converts, each with a label and a tip, in the same order as `--precision`."""
    offered = [dialog.precision.itemData(i) for i in range(dialog.precision.count())]
    # fp16 is emulated on a CPU (this machine's only provider), so the dialog hides it there
    assert offered == [p.value for p in Precision if p is not Precision.FP16]
    assert set(PRECISION_LABELS) == {p.value for p in Precision}  # a label for fp16 too, for GPUs
    model = dialog.precision.model()
    assert isinstance(model, QStandardItemModel)
    accurate = model.item(offered.index("int8-accurate"))
    assert accurate.isEnabled() and "full-precision" in accurate.toolTip()
    assert all(dialog.precision.itemText(i) for i in range(dialog.precision.count()))

"""Importing a model folder in Settings > Model: the user names it, and sees each step (copying,
checking, converting, the test transcription) with a step bar instead of minutes of
"Importing…". The real importer converts a real copy of the bundled tiny.en."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from gui_helpers import open_window

from app.installed_models import InstalledModels
from app.ui.settings_dialog import SettingsDialog


@pytest.fixture
def dialog(qtbot, parts, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> SettingsDialog:
    monkeypatch.setenv("EARSHOT_DATA_DIR", str(tmp_path / "earshot-data"))
    monkeypatch.setenv("EARSHOT_CACHE_DIR", str(tmp_path / "earshot-cache"))
    parts.catalog = InstalledModels()  # reads EARSHOT_DATA_DIR: imports land in tmp_path
    window = open_window(qtbot, parts, load=False)
    dialog = SettingsDialog(window.controller, window)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_an_import_is_named_and_shows_each_step(qtbot, dialog: SettingsDialog, bundled_model_dir: Path,
                                               tmp_path: Path) -> None:
    folder = tmp_path / "whisper-tiny-en-ct2"
    shutil.copytree(bundled_model_dir, folder)
    panel = dialog.import_panel
    assert panel.name.isVisible() and not panel.progress.isVisible()
    panel.name.setText("meetings")
    seen: list[tuple[int, str]] = []
    panel.progress.valueChanged.connect(lambda value: seen.append((value, panel.step.text())))
    dialog.choose_folder = lambda _parent: str(folder)  # what the user picks in the folder dialog
    dialog.import_button.click()
    assert panel.progress.isVisible() and panel.step.text() == "Importing meetings: starting…"
    assert not dialog.import_button.isEnabled() and not panel.name.isEnabled()
    qtbot.waitUntil(dialog.import_button.isEnabled, timeout=600_000)
    assert dialog.message.text() == "Imported meetings.", dialog.message.text()
    steps = [(value, text) for value, text in seen if value]
    assert [value for value, _ in steps] == [1, 2, 3, 4]
    for (value, text), words in zip(steps, ("copying the files", "checking the weights",
                                            "converting for this computer", "transcribing a test clip"),
                                    strict=True):
        assert text == f"Importing meetings: step {value} of 4, {words}…"
    assert not panel.progress.isVisible() and panel.name.text() == ""
    names = [dialog.model_list.item(i).text().split()[0] for i in range(dialog.model_list.count())]
    assert "meetings" in names and "whisper-tiny-en-ct2" not in names

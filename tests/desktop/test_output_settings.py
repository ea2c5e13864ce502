"""The output settings: stored with the others, turned into the options the integration uses."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from app.controller.desktop.integration import options_from_settings
from app.desktop.hotkeys import HotkeyMode
from app.desktop.typing import OutputMode
from app.dictation.postprocess import Replacement
from app.settings.schema import OutputSettings, Settings
from app.settings.store import SettingsStore


def test_output_settings_round_trip_through_the_settings_file(tmp_path: Path) -> None:
    store = SettingsStore(tmp_path / "settings.toml")
    settings = Settings()
    settings.output = OutputSettings(mode="paste", hotkey="super+d", hotkey_mode="hold", remove_fillers=False,
                                     replacements="ear shot -> Earshot\n")
    store.save(settings)
    assert store.load().settings.output == settings.output


def test_an_unknown_output_mode_is_a_corrupt_file_that_falls_back_to_defaults(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('version = 1\n[output]\nmode = "telepathy"\n', encoding="utf-8")
    loaded = SettingsStore(path).load()
    assert loaded.settings.output == OutputSettings() and loaded.notice is not None


def test_settings_become_integration_options() -> None:
    settings = OutputSettings(mode="paste", hotkey=" ctrl+alt+d ", hotkey_mode="hold", spoken_punctuation=False,
                              replacements="ear shot -> Earshot")
    options, problem = options_from_settings(settings)
    assert problem is None
    assert options.output.mode is OutputMode.PASTE
    assert (options.hotkey, options.hotkey_mode) == ("ctrl+alt+d", HotkeyMode.HOLD)
    assert options.output.postprocess.spoken_punctuation is False
    assert options.output.postprocess.replacements == (Replacement("ear shot", "Earshot"),)


def test_a_bad_replacement_list_is_reported_and_left_out() -> None:
    options, problem = options_from_settings(OutputSettings(replacements="no arrow here"))
    assert problem is not None and "line 1" in problem
    assert options.output.postprocess.replacements == ()


def test_the_settings_dialog_page_saves_the_output_settings(qtbot: QtBot, tmp_path: Path) -> None:
    from app.composition import build_parts
    from app.controller.app_controller import AppController
    from app.ui.settings_dialog import SettingsDialog

    controller = AppController(build_parts(tmp_path / "settings.toml", tmp_path / "history.sqlite3"))
    dialog = SettingsDialog(controller)
    qtbot.addWidget(dialog)
    page = dialog.output_page
    page.mode.setCurrentIndex(page.mode.findData("paste"))
    page.hotkey_mode.setCurrentIndex(page.hotkey_mode.findData("hold"))
    page.hotkey.setText("super+d")
    page.checks["remove_fillers"].setChecked(False)
    page.replacements.setPlainText("ear shot -> Earshot")
    dialog.accept()
    expected = OutputSettings(mode="paste", hotkey="super+d", hotkey_mode="hold", remove_fillers=False,
                              replacements="ear shot -> Earshot")
    assert controller.settings.output == expected
    assert SettingsStore(tmp_path / "settings.toml").load().settings.output == expected

"""The window theme setting (version 3): older files keep the desktop's colours; a theme that
does not exist is a corrupt file, as other bad values are."""

from __future__ import annotations

from pathlib import Path

from app.settings.schema import SETTINGS_VERSION, Settings
from app.settings.store import SettingsStore


def test_a_version_2_file_keeps_the_system_theme(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('version = 2\n[window]\nclose_to_tray = true\n', encoding="utf-8")
    loaded = SettingsStore(path).load()
    assert loaded.notice is None
    assert loaded.settings.window.theme == "system" and loaded.settings.window.close_to_tray


def test_the_theme_round_trips(tmp_path: Path) -> None:
    settings = Settings()
    settings.window.theme = "dark"
    store = SettingsStore(tmp_path / "settings.toml")
    store.save(settings)
    assert f"version = {SETTINGS_VERSION}" in store.path.read_text() and SETTINGS_VERSION >= 3
    assert store.load().settings.window.theme == "dark"


def test_an_unknown_theme_falls_back_to_defaults_with_a_notice(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('version = 3\n[window]\ntheme = "purple"\n', encoding="utf-8")
    loaded = SettingsStore(path).load()
    assert loaded.settings == Settings()
    assert loaded.notice is not None and "purple" in loaded.notice

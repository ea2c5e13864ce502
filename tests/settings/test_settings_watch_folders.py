"""Settings version 4: watch folders. A version-3 file watches none; the list round-trips; a value
that is not a list of folder names falls back to defaults with a notice."""

from __future__ import annotations

from pathlib import Path

from app.settings.schema import SETTINGS_VERSION, Settings
from app.settings.store import SettingsStore


def test_a_version_3_file_watches_no_folders(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('version = 3\n[window]\ntheme = "dark"\n', encoding="utf-8")
    loaded = SettingsStore(path).load()
    assert loaded.notice is None
    assert loaded.settings.window.watch_folders == [] and loaded.settings.window.theme == "dark"


def test_watch_folders_round_trip(tmp_path: Path) -> None:
    settings = Settings()
    settings.window.watch_folders = ["/srv/recorder inbox", "/home/me/Podcasts"]
    store = SettingsStore(tmp_path / "settings.toml")
    store.save(settings)
    assert f"version = {SETTINGS_VERSION}" in store.path.read_text() and SETTINGS_VERSION >= 4
    assert store.load().settings.window.watch_folders == ["/srv/recorder inbox", "/home/me/Podcasts"]


def test_a_watch_folder_that_is_not_a_name_is_refused_with_a_notice(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text("version = 4\n[window]\nwatch_folders = [\"/srv/in\", 3]\n", encoding="utf-8")
    loaded = SettingsStore(path).load()
    assert loaded.settings.window.watch_folders == []
    assert loaded.notice is not None and "watch_folders" in loaded.notice

"""Settings versions 4 and 5: watch folders. A version-3 file watches none; a version-4 file's
folders (plain names) keep being watched and write a .txt beside each media file; each folder's
formats and output folder round-trip; a value that does not fit falls back to defaults with a
notice."""

from __future__ import annotations

from pathlib import Path

from app.settings.schema import SETTINGS_VERSION, Settings, WatchFolder
from app.settings.store import SettingsStore


def test_a_version_3_file_watches_no_folders(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('version = 3\n[window]\ntheme = "dark"\n', encoding="utf-8")
    loaded = SettingsStore(path).load()
    assert loaded.notice is None
    assert loaded.settings.window.watch_folders == [] and loaded.settings.window.theme == "dark"


def test_a_version_4_file_keeps_its_folders_writing_text_beside_the_media(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('version = 4\n[window]\ntheme = "light"\nwatch_folders = ["/srv/recorder inbox", "/home/me/Pod"]\n',
                    encoding="utf-8")
    loaded = SettingsStore(path).load()
    assert loaded.notice is None and loaded.settings.window.theme == "light"
    assert loaded.settings.window.watch_folders == [
        WatchFolder("/srv/recorder inbox", ["txt"], ""), WatchFolder("/home/me/Pod", ["txt"], "")]
    SettingsStore(path).save(loaded.settings)  # saved again: the new shape, read back the same
    assert path.read_text().startswith(f"version = {SETTINGS_VERSION}\n") and SETTINGS_VERSION >= 5
    assert "[[window.watch_folders]]" in path.read_text()
    assert SettingsStore(path).load().settings == loaded.settings


def test_watch_folders_round_trip(tmp_path: Path) -> None:
    settings = Settings()
    settings.window.watch_folders = [WatchFolder("/srv/recorder inbox", ["srt", "vtt", "json"], "/srv/subtitles"),
                                     WatchFolder("/home/me/Podcasts")]
    store = SettingsStore(tmp_path / "settings.toml")
    store.save(settings)
    assert f"version = {SETTINGS_VERSION}" in store.path.read_text()
    loaded = store.load()
    assert loaded.notice is None
    assert loaded.settings.window.watch_folders == [
        WatchFolder("/srv/recorder inbox", ["srt", "vtt", "json"], "/srv/subtitles"),
        WatchFolder("/home/me/Podcasts", ["txt"], "")]


def test_a_watch_folder_that_is_not_a_name_is_refused_with_a_notice(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text("version = 4\n[window]\nwatch_folders = [\"/srv/in\", 3]\n", encoding="utf-8")
    loaded = SettingsStore(path).load()
    assert loaded.settings.window.watch_folders == []
    assert loaded.notice is not None and "watch_folders" in loaded.notice


def test_an_unknown_format_or_a_missing_folder_is_refused_with_a_notice(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('version = 5\n[[window.watch_folders]]\nfolder = "/srv/in"\nformats = ["txt", "docx"]\n',
                    encoding="utf-8")
    loaded = SettingsStore(path).load()
    assert loaded.settings.window.watch_folders == []
    assert loaded.notice is not None and "docx" in loaded.notice
    path.write_text('version = 5\n[[window.watch_folders]]\nformats = ["txt"]\n', encoding="utf-8")
    loaded = SettingsStore(path).load()
    assert loaded.notice is not None and "WatchFolder.folder is missing" in loaded.notice

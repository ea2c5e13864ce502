"""Settings version 2: a model for files next to the one for live dictation, and download settings."""

from __future__ import annotations

from pathlib import Path

from app.settings.schema import Settings
from app.settings.store import SettingsStore


def test_a_version_1_file_keeps_its_model_for_files_too(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('version = 1\n[model]\nname = "base"\nprecision = "int8"\n', encoding="utf-8")
    loaded = SettingsStore(path).load()
    assert loaded.notice is None
    assert (loaded.settings.model.name, loaded.settings.model.file_name) == ("base", "base")
    assert loaded.settings.downloads.mirror == ""
    SettingsStore(path).save(loaded.settings)
    assert "version = 5" in path.read_text(encoding="utf-8")  # written as the current version


def test_live_and_file_models_and_a_mirror_round_trip(tmp_path: Path) -> None:
    settings = Settings()
    settings.model.name, settings.model.file_name = "base.en", "small.en"
    settings.downloads.mirror, settings.downloads.token = "https://hf-mirror.com", "hf_abc"
    store = SettingsStore(tmp_path / "settings.toml")
    store.save(settings)
    assert store.load().settings == settings


def test_a_mirror_that_is_not_http_is_refused_with_a_notice(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('version = 2\n[downloads]\nmirror = "ftp://mirror"\n', encoding="utf-8")
    loaded = SettingsStore(path).load()
    assert loaded.settings == Settings()
    assert loaded.notice is not None

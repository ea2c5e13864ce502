"""Settings version 6: keeping dictation audio for playback. A version-4 or -5 file keeps none (the
private default); the switch round-trips."""

from __future__ import annotations

from pathlib import Path

from app.settings.schema import SETTINGS_VERSION, Settings
from app.settings.store import SettingsStore


def test_a_version_4_file_loads_and_keeps_no_dictation_audio(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('version = 4\n[dictation]\nmin_silence_s = 0.8\n[window]\nwatch_folders = ["/srv/in"]\n',
                    encoding="utf-8")
    loaded = SettingsStore(path).load()
    assert loaded.notice is None
    assert loaded.settings.dictation.keep_audio is False
    assert loaded.settings.dictation.min_silence_s == 0.8
    assert [w.folder for w in loaded.settings.window.watch_folders] == ["/srv/in"]


def test_a_version_5_file_loads_and_keeps_no_dictation_audio(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('version = 5\n[dictation]\nclose_sentences = false\n', encoding="utf-8")
    loaded = SettingsStore(path).load()
    assert loaded.notice is None
    assert loaded.settings.dictation.keep_audio is False and loaded.settings.dictation.close_sentences is False


def test_keep_audio_round_trips_and_is_off_by_default(tmp_path: Path) -> None:
    assert Settings().dictation.keep_audio is False
    settings = Settings()
    settings.dictation.keep_audio = True
    store = SettingsStore(tmp_path / "settings.toml")
    store.save(settings)
    assert f"version = {SETTINGS_VERSION}" in store.path.read_text()
    assert store.load().settings.dictation.keep_audio is True

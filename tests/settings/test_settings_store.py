"""Settings on disk: round-trip, corrupt files, migrations (real files in tmp_path)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from earshot_testing import another_users, fill_up, home_env, tmpfs, without_file_permission_override

from app.settings import store as store_module
from app.settings.schema import SETTINGS_VERSION, Settings
from app.settings.store import SettingsStore


def test_settings_round_trip(tmp_path: Path) -> None:
    store = SettingsStore(tmp_path / "cfg" / "settings.toml")
    settings = Settings()
    settings.model.precision = "int8"
    settings.model.provider = "CPUExecutionProvider"
    settings.decode.language = "de"
    settings.decode.initial_prompt = "Kubernetes, Grafana"
    settings.dictation.vad_sensitivity = 0.8
    settings.dictation.min_silence_s = 1.2
    settings.window.close_to_tray = True
    store.save(settings)

    loaded = SettingsStore(store.path).load()
    assert loaded.notice is None
    assert loaded.settings == settings
    assert 'precision = "int8"' in store.path.read_text()
    assert f"version = {SETTINGS_VERSION}" in store.path.read_text()


def test_missing_file_gives_defaults_without_notice(tmp_path: Path) -> None:
    loaded = SettingsStore(tmp_path / "settings.toml").load()
    assert loaded.settings == Settings()
    assert loaded.notice is None


@pytest.mark.parametrize(
    "content",
    [
        "this is [not toml",
        'version = 1\n[model]\nprecision = "float128"\n',
        "version = 1\n[model]\nname = 42\n",
        "version = 99\n",
        "version = 1\n[dictation]\nmin_silence_s = 10.0\n",
        "\xff\xfe garbage",
    ],
)
def test_corrupt_file_is_kept_as_bak_and_defaults_used(tmp_path: Path, content: str) -> None:
    path = tmp_path / "settings.toml"
    path.write_bytes(content.encode("latin-1"))
    store = SettingsStore(path)
    loaded = store.load()
    assert loaded.settings == Settings()
    assert loaded.notice is not None and "settings.toml.bak" in loaded.notice
    assert store.backup_path.read_bytes() == content.encode("latin-1")
    assert not path.exists()
    store.save(loaded.settings)  # the app can go on and save fresh defaults
    assert store.load().notice is None


def test_older_version_is_migrated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def v1_to_v2(doc: dict) -> dict:
        doc = dict(doc, version=2)
        doc["model"] = {"name": doc.pop("model_name")}
        return doc

    monkeypatch.setattr(store_module, "SETTINGS_VERSION", 2)
    monkeypatch.setitem(store_module.MIGRATIONS, 1, v1_to_v2)
    path = tmp_path / "settings.toml"
    path.write_text('version = 1\nmodel_name = "base"\n')
    loaded = SettingsStore(path).load()
    assert loaded.notice is None
    assert loaded.settings.model.name == "base"


def test_failed_write_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = SettingsStore(tmp_path / "settings.toml")
    store.save(Settings())
    before = store.path.read_bytes()

    def disk_full(*_args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store_module.os, "fsync", disk_full)
    changed = Settings()
    changed.model.precision = "fp32"
    with pytest.raises(OSError):
        store.save(changed)
    assert store.path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["settings.toml"]


@pytest.mark.parametrize("kind", ["a_folder", "a_fifo"])
def test_a_settings_path_that_is_not_a_file_gives_defaults_and_is_kept(tmp_path: Path, kind: str) -> None:
    """A folder, or a FIFO (reading it would wait for a writer forever and hang the start), where
    settings.toml belongs: defaults with a one-line notice, the thing moved aside, saving works."""
    path = tmp_path / "settings.toml"
    if kind == "a_folder":
        path.mkdir()
        (path / "note.txt").write_text("the user's")
    else:
        os.mkfifo(path)
    store = SettingsStore(path)
    result = store.load()
    assert result.settings == Settings() and result.notice is not None and "\n" not in result.notice
    assert "not a regular file" in result.notice and str(store.backup_path) in result.notice
    assert kind != "a_folder" or (store.backup_path / "note.txt").read_text() == "the user's"
    store.save(result.settings)
    assert store.load().notice is None


@pytest.mark.parametrize("cut", ["empty", "half", "one_byte_short"])
def test_an_empty_or_truncated_file_loads_as_settings_or_defaults_and_saving_works(tmp_path: Path, cut: str) -> None:
    """A settings.toml cut short (a disk that filled while another program wrote it, a copy
    stopped half way): never an exception; what still parses is kept, anything else is the
    defaults with a one-line notice and the bytes kept aside."""
    path = tmp_path / "settings.toml"
    store = SettingsStore(path)
    store.save(Settings())
    data = path.read_bytes()
    path.write_bytes({"empty": b"", "half": data[: len(data) // 2], "one_byte_short": data[:-1]}[cut])
    loaded = store.load()
    assert isinstance(loaded.settings, Settings)
    assert loaded.notice is None or "\n" not in loaded.notice
    store.save(loaded.settings)
    assert store.load().notice is None


def test_a_settings_file_this_user_may_not_read_is_kept_and_defaults_used(tmp_path: Path) -> None:
    """A real unreadable file: another user's 0600 settings.toml (as `sudo earshot` leaves it),
    loaded and saved by a process that root's file permission override is taken from."""
    folder = tmp_path / "config" / "earshot"
    folder.mkdir(parents=True)
    theirs = b'version = %d\n[window]\ntheme = "dark"\n' % SETTINGS_VERSION
    (folder / "settings.toml").write_bytes(theirs)
    another_users(folder / "settings.toml")
    result = subprocess.run(without_file_permission_override([sys.executable, "-c", _LOAD_AND_SAVE]), cwd=tmp_path,
                            env=home_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    notice, saved = result.stdout.splitlines()
    assert "could not be read" in notice and "Permission denied" in notice and "settings.toml.bak" in notice
    assert saved == "saved"
    assert (folder / "settings.toml.bak").read_bytes() == theirs  # kept, byte for byte
    assert SettingsStore(folder / "settings.toml").load().notice is None  # the new file is the user's


_LOAD_AND_SAVE = """
from app.settings.store import SettingsStore
store = SettingsStore()
result = store.load()
print(result.notice)
store.save(result.settings)
print("saved")
"""


def test_a_real_full_disk_keeps_the_old_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    """A real full file system (tmpfs): the save raises "No space left on device" (the window says
    the settings apply until quit), the old file is whole, and no temporary file is left."""
    with tmpfs(tmp_path / "disk", "size=64k") as disk:
        store = SettingsStore(disk / "earshot" / "settings.toml")
        first = Settings()
        first.window.theme = "dark"
        store.save(first)
        before = store.path.read_bytes()
        fill_up(disk)
        changed = Settings()
        changed.model.precision = "fp32"
        changed.decode.vocabulary = [f"word{i}" for i in range(200)]  # more than a page: a new page is needed
        with pytest.raises(OSError) as failed:
            store.save(changed)
        assert failed.value.errno == 28 and failed.value.strerror == "No space left on device"
        assert store.path.read_bytes() == before
        assert sorted(p.name for p in store.path.parent.iterdir()) == ["settings.toml"]
        (disk / "filler").unlink()
        store.save(changed)
        assert store.load().settings.model.precision == "fp32"

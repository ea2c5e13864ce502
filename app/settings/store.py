"""Versioned TOML storage for `Settings` in platformdirs' user config dir.

A file that cannot be read or does not fit the schema is renamed to `settings.toml.bak`, the
defaults are used, and `LoadResult.notice` says so (the UI shows it). Writes are atomic: a
temporary file in the same folder, fsync, then `os.replace`.
"""

from __future__ import annotations

import dataclasses
import errno
import os
import tempfile
import tomllib
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs
import tomli_w

from app.private_files import private_dir
from app.settings.schema import (
    DEFAULT_VOCABULARY_BOOST,
    HOTKEY_MODES,
    MAX_VOCABULARY_BOOST,
    OUTPUT_MODES,
    PRECISIONS,
    SETTINGS_VERSION,
    TASKS,
    THEMES,
    WATCH_FORMATS,
    Settings,
    SettingsError,
    split_vocabulary,
)

APP_NAME = "earshot"
FILE_NAME = "settings.toml"

Migration = Callable[[dict[str, Any]], dict[str, Any]]


def _v1_to_v2(document: dict[str, Any]) -> dict[str, Any]:
    """v1 had one model for everything: files keep using it (model.file_name = model.name)."""
    model = dict(document.get("model", {}))
    model.setdefault("file_name", model.get("name", ""))
    return {**document, "model": model, "version": 2}


def _v2_to_v3(document: dict[str, Any]) -> dict[str, Any]:
    """v3 added the window theme; older files keep the desktop's colours."""
    window = dict(document.get("window", {}))
    window.setdefault("theme", "system")
    return {**document, "window": window, "version": 3}


def _v3_to_v4(document: dict[str, Any]) -> dict[str, Any]:
    """v4 added watch folders; older files watch none."""
    window = dict(document.get("window", {}))
    window.setdefault("watch_folders", [])
    return {**document, "window": window, "version": 4}


def _v4_to_v5(document: dict[str, Any]) -> dict[str, Any]:
    """v5 made each watch folder a table with its transcript files: older folders write a .txt
    beside each media file (v4 wrote none; the History entry stays as it was)."""
    window = dict(document.get("window", {}))
    folders = window.get("watch_folders", [])
    if isinstance(folders, list):  # anything else is refused, with a notice, by the type check
        window["watch_folders"] = [{"folder": f} if isinstance(f, str) else f for f in folders]
    return {**document, "window": window, "version": 5}


def _v5_to_v6(document: dict[str, Any]) -> dict[str, Any]:
    """v6 added keeping dictation audio for playback; older files keep none (the private default)."""
    dictation = dict(document.get("dictation", {}))
    dictation.setdefault("keep_audio", False)
    return {**document, "dictation": dictation, "version": 6}


def _v6_to_v7(document: dict[str, Any]) -> dict[str, Any]:
    """v7 added the vocabulary the decoder favours. The window's "Vocabulary" field used to be
    fed to Whisper as its initial prompt; its entries become the favoured words, and the prompt
    is emptied (a list of words as a prompt gets copied into the text)."""
    decode = dict(document.get("decode", {}))
    prompt = decode.get("initial_prompt", "")
    if isinstance(prompt, str) and "vocabulary" not in decode:
        decode["vocabulary"], decode["initial_prompt"] = list(split_vocabulary(prompt)), ""
    decode.setdefault("vocabulary_boost", DEFAULT_VOCABULARY_BOOST)
    return {**document, "decode": decode, "version": 7}


MIGRATIONS: dict[int, Migration] = {1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4, 4: _v4_to_v5, 5: _v5_to_v6, 6: _v6_to_v7}
"""`MIGRATIONS[n]` upgrades a version-n document to version n+1."""


def default_settings_path() -> Path:
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)) / FILE_NAME


@dataclass
class LoadResult:
    """The settings read from disk, and why defaults were used instead (if they were)."""

    settings: Settings
    notice: str | None = None
    """A user-facing sentence when the file was unusable and defaults were used."""


class SettingsStore:
    """Reads and writes one settings file (default: the user config dir)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_settings_path()

    @property
    def backup_path(self) -> Path:
        return self.path.with_name(self.path.name + ".bak")

    def load(self) -> LoadResult:
        if not self.path.exists():
            return LoadResult(Settings())
        try:
            if not self.path.is_file():  # a folder; a FIFO would never end and hang the start
                raise OSError(errno.EINVAL, "not a regular file", str(self.path))
            document = tomllib.loads(self.path.read_text(encoding="utf-8"))
            return LoadResult(settings_from_document(document))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, SettingsError) as exc:
            return LoadResult(Settings(), self._keep_bad_file(exc))

    def save(self, settings: Settings) -> None:
        """Write atomically; raises OSError (e.g. disk full) with the old file intact."""
        private_dir(self.path.parent)  # the file itself is mkstemp's 0600
        data = tomli_w.dumps(settings_to_document(settings)).encode("utf-8")
        fd, tmp = tempfile.mkstemp(prefix=".settings-", suffix=".tmp", dir=self.path.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def _keep_bad_file(self, exc: Exception) -> str:
        try:
            os.replace(self.path, self.backup_path)
            kept = f"it was kept as {self.backup_path}"
        except OSError:
            kept = "it could not be moved aside"
        return f"Your settings file could not be read ({exc}); defaults are in use and {kept}."


def settings_to_document(settings: Settings) -> dict[str, Any]:
    """The TOML document: `version` plus one table per section; None values are omitted."""
    document: dict[str, Any] = {"version": SETTINGS_VERSION}
    for section in dataclasses.fields(settings):
        values = dataclasses.asdict(getattr(settings, section.name))
        document[section.name] = {k: v for k, v in values.items() if v is not None}
    return document


def settings_from_document(document: dict[str, Any]) -> Settings:
    """Parse a (possibly older) document; unknown keys are ignored, wrong types raise."""
    document = migrate(document)
    settings = Settings()
    hints = typing.get_type_hints(Settings)
    for section in dataclasses.fields(settings):
        table = document.get(section.name, {})
        if not isinstance(table, dict):
            raise SettingsError(f"[{section.name}] must be a table")
        setattr(settings, section.name, _section_from_table(hints[section.name], table))
    _validate(settings)
    return settings


def migrate(document: dict[str, Any]) -> dict[str, Any]:
    version = document.get("version", 1)
    if not isinstance(version, int) or version < 1:
        raise SettingsError(f"bad version {version!r}")
    if version > SETTINGS_VERSION:
        raise SettingsError(f"written by a newer Earshot (version {version})")
    while version < SETTINGS_VERSION:
        document = MIGRATIONS[version](document)
        version += 1
    return document


def _section_from_table(cls: type, table: dict[str, Any]) -> Any:
    hints = typing.get_type_hints(cls)
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name in table:
            values[f.name] = _checked(f"{cls.__name__}.{f.name}", hints[f.name], table[f.name])
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise SettingsError(f"{cls.__name__}.{f.name} is missing")
    return cls(**values)


def _checked(name: str, hint: Any, value: Any) -> Any:
    if typing.get_origin(hint) is list:  # list[str], or list[SomeDataclass]: a TOML array of tables
        (item,) = typing.get_args(hint)
        tables = isinstance(value, list) and all(isinstance(v, dict) for v in value)
        if isinstance(item, type) and dataclasses.is_dataclass(item) and tables:
            return [_section_from_table(item, v) for v in value]
        if not isinstance(value, list) or not all(isinstance(v, item) for v in value):
            raise SettingsError(f"{name}: expected a list of {item.__name__}, got {value!r}")
        return list(value)
    allowed = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    allowed = tuple(t for t in allowed if t is not type(None))
    if float in allowed and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, bool) and bool not in allowed:
        raise SettingsError(f"{name}: expected {hint}, got {value!r}")
    if not isinstance(value, allowed):
        raise SettingsError(f"{name}: expected {hint}, got {value!r}")
    return value


def _validate(settings: Settings) -> None:
    if settings.model.precision not in PRECISIONS:
        raise SettingsError(f"unknown precision {settings.model.precision!r}")
    if settings.decode.task not in TASKS:
        raise SettingsError(f"unknown task {settings.decode.task!r}")
    if not 1 <= settings.decode.file_beam_size <= 16:
        raise SettingsError("file_beam_size must be 1..16")
    if not 0.0 <= settings.decode.vocabulary_boost <= MAX_VOCABULARY_BOOST:
        raise SettingsError(f"vocabulary_boost must be 0..{MAX_VOCABULARY_BOOST:g}")
    if not 0.0 <= settings.dictation.vad_sensitivity <= 1.0:
        raise SettingsError("vad_sensitivity must be 0..1")
    if not 0.2 <= settings.dictation.min_silence_s <= 3.0:
        raise SettingsError("min_silence_s must be 0.2..3 seconds")
    if not 0.0 <= settings.dictation.speech_pad_s <= 1.0:
        raise SettingsError("speech_pad_s must be 0..1 seconds")
    if not 0 <= settings.model.unload_idle_min <= 1440:
        raise SettingsError("unload_idle_min must be 0..1440 minutes")
    if settings.downloads.mirror and not settings.downloads.mirror.startswith(("http://", "https://")):
        raise SettingsError(f"the download mirror must be an http(s) address, got {settings.downloads.mirror!r}")
    if settings.output.mode not in OUTPUT_MODES:
        raise SettingsError(f"unknown output mode {settings.output.mode!r}")
    if settings.output.hotkey_mode not in HOTKEY_MODES:
        raise SettingsError(f"unknown hotkey mode {settings.output.hotkey_mode!r}")
    if settings.window.theme not in THEMES:
        raise SettingsError(f"unknown theme {settings.window.theme!r}")
    for watch in settings.window.watch_folders:
        if not watch.folder.strip():
            raise SettingsError("a watch folder has no folder name")
        if not watch.formats or not set(watch.formats) <= set(WATCH_FORMATS):
            raise SettingsError(
                f"watch folder {watch.folder}: formats must be some of {', '.join(WATCH_FORMATS)}, "
                f"got {watch.formats!r}"
            )

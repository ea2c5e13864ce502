"""Earshot settings: typed, versioned, stored per user. Never imports Qt."""

from app.settings.schema import Settings, SettingsError
from app.settings.store import LoadResult, SettingsStore

__all__ = ["LoadResult", "Settings", "SettingsError", "SettingsStore"]

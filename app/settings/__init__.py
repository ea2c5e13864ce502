"""Earshot settings and history: typed, versioned, stored per user. Never imports Qt."""

from app.settings.model import Settings, SettingsError
from app.settings.store import LoadResult, SettingsStore

__all__ = ["LoadResult", "Settings", "SettingsError", "SettingsStore"]

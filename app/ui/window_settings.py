"""The "Window" page of the settings dialog: the colours and what closing the window does."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QWidget

from app.settings.schema import Settings
from app.ui.settings_choices import form_page, theme_combo


class WindowSettingsPage(QWidget):
    """Shows `settings`' window choices; `collect_into` writes them back."""

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.close_to_tray = QCheckBox("Closing the window keeps Earshot in the tray", self)
        self.close_to_tray.setAccessibleName("Close to tray")
        self.close_to_tray.setChecked(settings.closes_to_tray())
        self.theme = theme_combo(settings.window.theme, self)
        form_page(self, [("Colours", self.theme), ("Closing", self.close_to_tray)])

    def collect_into(self, settings: Settings) -> None:
        settings.window.close_to_tray = self.close_to_tray.isChecked()
        settings.window.theme = self.theme.currentData()

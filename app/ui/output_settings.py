"""The "Dictate into apps" page of the settings dialog: output mode, global hotkey, indicator
and the post-processing of committed text, with what this desktop needs said plainly."""

from __future__ import annotations

import dataclasses
import os
import sys

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from app.settings.schema import OutputSettings
from app.ui.hotkey_field import HotkeyField

MODES = (
    ("type", "Type into the focused app"),
    ("paste", "Paste into the focused app (your clipboard is put back)"),
    ("window", "Only in Earshot's window"),
)
HOTKEY_MODES = (("toggle", "Press to start, press again to stop"), ("hold", "Hold to talk"))
_CHECKS = (
    ("spoken_punctuation", 'Spoken punctuation and commands ("comma", "period", "new line", …)'),
    ("remove_fillers", "Remove filler words (um, uh, erm)"),
    ("capitalize_sentences", "Capital letter after a spoken sentence end"),
    ("space_between_utterances", "A space between utterances"),
    ("space_at_start", "A space before the first words (to continue existing text)"),
    ("trailing_space", "A space after each utterance"),
    ("show_indicator", "Show a small indicator while dictating"),
)


def desktop_note(platform: str = sys.platform, session: str | None = None) -> str:
    """What this desktop needs for typing and for the global hotkey, in one paragraph."""
    session = session if session is not None else os.environ.get("XDG_SESSION_TYPE", "")
    if platform == "darwin":
        return (
            "macOS: allow Earshot under System Settings > Privacy & Security > Accessibility to type or "
            "paste. The global hotkey is not built in yet: bind `earshot toggle` to a shortcut."
        )
    if platform == "win32":
        return (
            "Windows: apps running as administrator do not accept typing from Earshot unless it runs as "
            "administrator too."
        )
    if session == "wayland" or os.environ.get("WAYLAND_DISPLAY"):
        return (
            "Wayland: typing needs wtype (sway, Hyprland, KDE) or ydotool; apps cannot grab keys, so add "
            "a shortcut in your desktop's keyboard settings that runs `earshot toggle`."
        )
    return ""  # X11: typing and the global hotkey need nothing from the user


class OutputSettingsPage(QWidget):
    """Settings > Dictate into apps: output mode, hotkey, and the clean-up of committed text."""

    def __init__(self, settings: OutputSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._settings = settings
        self.mode = self._combo("Output", MODES, settings.mode)
        self.hotkey_field = HotkeyField(settings.hotkey, self)
        self.hotkey = self.hotkey_field.edit
        self.hotkey_mode = self._combo("Hotkey mode", HOTKEY_MODES, settings.hotkey_mode)
        self.checks: dict[str, QCheckBox] = {}
        for name, label in _CHECKS:
            box = QCheckBox(label, self)
            box.setAccessibleName(label)
            box.setChecked(bool(getattr(settings, name)))
            self.checks[name] = box
        self.replacements = QPlainTextEdit(settings.replacements, self)
        self.replacements.setAccessibleName("Replacements")
        self.replacements.setPlaceholderText("One per line: spoken words -> written text\near shot -> Earshot")
        self.replacements.setMaximumHeight(90)
        note = QLabel(desktop_note(), self)
        note.setObjectName("muted")
        note.setWordWrap(True)
        note.setVisible(bool(note.text()))
        form = QFormLayout()
        form.addRow("Your words go", self.mode)
        form.addRow("Global hotkey", self.hotkey_field)
        form.addRow("Hotkey mode", self.hotkey_mode)
        text = QGroupBox("Text", self)
        text_layout = QVBoxLayout(text)
        for name, box in self.checks.items():
            if name != "show_indicator":
                text_layout.addWidget(box)
        text_layout.addWidget(QLabel("Replacements", text))
        text_layout.addWidget(self.replacements)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.checks["show_indicator"])
        layout.addWidget(text)
        layout.addWidget(note)
        layout.addStretch(1)

    def collect(self) -> OutputSettings:
        values = {name: box.isChecked() for name, box in self.checks.items()}
        return dataclasses.replace(
            self._settings,
            mode=self.mode.currentData(),
            hotkey=self.hotkey.text().strip(),
            hotkey_mode=self.hotkey_mode.currentData(),
            replacements=self.replacements.toPlainText(),
            **values,
        )

    def _combo(self, name: str, choices: tuple[tuple[str, str], ...], current: str) -> QComboBox:
        combo = QComboBox(self)
        combo.setAccessibleName(name)
        for value, label in choices:
            combo.addItem(label, value)
        combo.setCurrentIndex(max(0, combo.findData(current)))
        return combo

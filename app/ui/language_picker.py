"""The spoken language in the main window's status bar: what was heard (the language detected in
the last transcribed file) or chosen, and a menu to change it without opening Settings."""

from __future__ import annotations

import copy

from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu, QToolButton, QWidget

from app.controller.app_controller import AppController
from app.controller.job_records import Job
from app.controller.ports import EngineDescription
from app.settings.schema import Settings
from app.ui.labels import LANGUAGES

NAMES = dict(LANGUAGES)
COMMON = ("en", "de", "es", "fr", "it", "nl", "pt", "pl", "ru", "zh", "ja")
"""Listed first, before all of Whisper's languages in a submenu."""


def language_name(code: str | None) -> str:
    return NAMES.get(code or "", code or "")


class LanguagePicker(QToolButton):
    """ "Language: Detect (heard French)" or "Language: German"; its menu sets `decode.language`.
    An English-only model shows "Language: English" and explains why it cannot change."""

    def __init__(self, controller: AppController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.heard = ""  # the language detected in the last transcribed file
        self.multilingual = False
        self.setAccessibleName("Spoken language")
        self.setAutoRaise(True)
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.menu_ = QMenu(self)
        self.choices = QActionGroup(self)
        self._add(self.menu_, "Detect automatically", None)
        self.menu_.addSeparator()
        for code in COMMON:
            self._add(self.menu_, NAMES[code], code)
        every = self.menu_.addMenu("All languages")
        for code, name in LANGUAGES:
            self._add(every, name, code)
        self.setMenu(self.menu_)
        controller.settings_changed.connect(self._on_settings)
        controller.models.loaded.connect(self._on_loaded)
        controller.jobs.job_finished.connect(self._on_job_finished)
        self.show_choice()

    def _add(self, menu: QMenu, text: str, code: str | None) -> QAction:
        action = menu.addAction(text)
        action.setCheckable(True)
        action.setData(code)
        self.choices.addAction(action)
        action.triggered.connect(self._on_action)
        return action

    def _on_action(self) -> None:
        action = self.choices.checkedAction()
        if action is not None:
            self.choose(action.data())

    def choose(self, code: str | None) -> None:
        """Use `code` (None = detect) for dictation and files from now on, and save it."""
        settings: Settings = copy.deepcopy(self.controller.settings)
        settings.decode.language = code
        self.controller.apply_settings(settings)  # settings_changed redraws this button

    def show_choice(self) -> None:
        chosen = self.controller.settings.decode.language
        for action in self.choices.actions():
            action.setChecked(action.data() == chosen)
        if not self.multilingual:
            self.setText("Language: English")
            self.setToolTip("This model understands English only: pick a multilingual model in Settings > Model")
            self.setEnabled(False)
            return
        self.setEnabled(True)
        if chosen:
            self.setText(f"Language: {language_name(chosen)}")
            self.setToolTip("Dictation and files are transcribed as this language; click to change")
        else:
            heard = f" (heard {language_name(self.heard)})" if self.heard else ""
            self.setText(f"Language: Detect{heard}")
            self.setToolTip("Each recording's language is detected; click to choose one")

    def _on_settings(self, _settings: Settings) -> None:
        self.show_choice()

    def _on_loaded(self, description: EngineDescription) -> None:
        self.multilingual = description.multilingual
        self.show_choice()

    def _on_job_finished(self, job: Job) -> None:
        if job.transcript is not None and job.transcript.language:
            self.heard = job.transcript.language
            self.show_choice()

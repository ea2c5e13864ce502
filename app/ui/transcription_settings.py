"""The "Transcription" page of the settings dialog: language, task, vocabulary and the accuracy
for files."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QLabel, QPlainTextEdit, QWidget

from app.settings.schema import Settings, split_vocabulary
from app.ui.labels import LANGUAGES
from app.ui.settings_choices import file_accuracy_combo, form_page, select_data, vocabulary_boost_box


class TranscriptionSettingsPage(QWidget):
    """Shows `settings`' decoding choices; `collect_into` writes them back."""

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.language = QComboBox(self)
        self.language.setAccessibleName("Language")
        self.language.addItem("Detect automatically", None)
        for code, name in LANGUAGES:
            self.language.addItem(name, code)
        select_data(self.language, settings.decode.language)
        self.task = QComboBox(self)
        self.task.setAccessibleName("Task")
        self.task.addItem("Transcribe (same language)", "transcribe")
        self.task.addItem("Translate to English", "translate")
        select_data(self.task, settings.decode.task)
        self.vocabulary = QPlainTextEdit(", ".join(settings.decode.vocabulary), self)
        self.vocabulary.setAccessibleName("Custom vocabulary")
        self.vocabulary.setPlaceholderText("Names and terms to spell right, e.g. Kubernetes, Nguyen")
        self.vocabulary.setTabChangesFocus(True)
        self.vocabulary.setFixedHeight(72)
        self.vocabulary_boost = vocabulary_boost_box(settings.decode.vocabulary_boost, self)
        self.beam = file_accuracy_combo(settings.decode.file_beam_size, self)
        self.language_hint = QLabel(
            "This model understands English only: pick a multilingual model for other languages and translation.", self
        )
        self.language_hint.setObjectName("muted")
        self.language_hint.setWordWrap(True)
        form_page(
            self,
            [
                ("Language", self.language),
                ("Task", self.task),
                ("", self.language_hint),
                ("Vocabulary", self.vocabulary),
                ("Favour these words", self.vocabulary_boost),
                ("Accuracy for files", self.beam),
            ],
        )

    def show_multilingual(self, multilingual: bool) -> None:
        """Language and task apply to a multilingual model only; an English-only one says so."""
        self.language.setEnabled(multilingual)
        self.task.setEnabled(multilingual)
        self.language.setToolTip("" if multilingual else "This model understands English only")
        self.language_hint.setVisible(not multilingual)

    def collect_into(self, settings: Settings) -> None:
        settings.decode.language = self.language.currentData() if self.language.isEnabled() else None
        settings.decode.task = self.task.currentData() if self.task.isEnabled() else "transcribe"
        settings.decode.vocabulary = list(split_vocabulary(self.vocabulary.toPlainText()))
        settings.decode.vocabulary_boost = self.vocabulary_boost.value()
        settings.decode.file_beam_size = int(self.beam.currentData())

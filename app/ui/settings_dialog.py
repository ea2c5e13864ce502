"""The settings dialog. OK / Apply hand a new `Settings` to the controller, which saves it
and reloads the model in the background when the model, precision or provider changed."""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.controller.app_controller import AppController
from app.controller.model_library import ModelImport
from app.controller.ports import ModelInfo
from app.settings.schema import Settings, split_vocabulary
from app.ui.dictation_settings import DictationSettingsPage
from app.ui.labels import LANGUAGES, provider_label
from app.ui.model_import import ImportPanel
from app.ui.models_page import ModelsPage
from app.ui.output_settings import OutputSettingsPage
from app.ui.settings_choices import (
    file_accuracy_combo,
    fill_precisions,
    import_error_text,
    precision_note,
    runs_on_cpu,
    show_every_tab,
    vocabulary_boost_box,
)
from app.ui.watch_settings import WatchFoldersPage
from app.ui.window_settings import WindowSettingsPage

FolderPrompt = Callable[[QWidget], str]

log = logging.getLogger(__name__)


class SettingsDialog(QDialog):
    """The settings dialog: model, transcription, dictation, output and downloads tabs; OK/Apply
    hand a new `Settings` to the controller, models are listed and removed through its `library`."""

    def __init__(self, controller: AppController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.setAccessibleName("Settings")
        self.setMinimumWidth(520)
        self.controller = controller
        self.settings: Settings = copy.deepcopy(controller.settings)
        self.choose_folder: FolderPrompt = _folder_dialog
        self._models: list[ModelInfo] = []
        self._import: ModelImport | None = None
        self.tabs = tabs = QTabWidget(self)
        tabs.addTab(self._model_tab(), "Model")
        tabs.addTab(self._text_tab(), "Transcription")
        self.dictation_page = DictationSettingsPage(self.settings, controller.input_devices(rescan=True), self)
        self.device, self.vad = self.dictation_page.device, self.dictation_page.vad
        self.min_silence, self.speech_pad = self.dictation_page.min_silence, self.dictation_page.speech_pad
        tabs.addTab(self.dictation_page, "Dictation")
        self.output_page = OutputSettingsPage(self.settings.output, self)
        tabs.addTab(self.output_page, "Dictate into apps")
        self.watch_page = WatchFoldersPage(self.settings.window.watch_folders, self)
        tabs.addTab(self.watch_page, "Watch folders")
        self.models_page = ModelsPage(controller, self.settings.downloads, self)
        self.models_page.installed.connect(lambda _name: self._load_models())
        controller.library.removed.connect(self._model_removed)
        tabs.addTab(self.models_page, "Download models")
        self.window_page = WindowSettingsPage(self.settings, self)
        self.close_to_tray, self.theme = self.window_page.close_to_tray, self.window_page.theme
        tabs.addTab(self.window_page, "Window")
        show_every_tab(tabs)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok
            | QDialogButtonBox.StandardButton.Cancel
            | QDialogButtonBox.StandardButton.Apply,
            self,
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.apply_button = buttons.button(QDialogButtonBox.StandardButton.Apply)
        self.apply_button.clicked.connect(self.apply)
        self.message = QLabel(self)
        self.message.setObjectName("muted")
        self.message.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(tabs)
        layout.addWidget(self.message)
        layout.addWidget(buttons)
        self._load_models()
        self._fill_precisions()

    # --- tabs ------------------------------------------------------------------------

    def _model_tab(self) -> QWidget:
        tab = QWidget(self)
        self.model_list = QListWidget(tab)
        self.model_list.setAccessibleName("Installed models")
        self.model_list.setToolTip("The model for live dictation")
        self.file_model = QComboBox(tab)
        self.file_model.setAccessibleName("Model for files")
        self.model_list.currentItemChanged.connect(lambda *_: self._on_model_changed())
        self.import_panel = ImportPanel(tab)
        self.import_button = self.import_panel.button
        self.import_button.clicked.connect(self._import_model)
        self.remove_button = QPushButton("Remove", tab)
        self.remove_button.setAccessibleName("Remove selected model")
        self.remove_button.clicked.connect(self._remove_model)
        self.precision = QComboBox(tab)
        self.precision.setAccessibleName("Precision")
        self.provider = QComboBox(tab)
        self.provider.setAccessibleName("Execution provider")
        self.provider.addItem("CPU (default)", None)
        for name in self.controller.library.providers():
            if name != "cpu":
                self.provider.addItem(provider_label(name), name)
        self._select(self.provider, self.settings.model.provider)
        self.provider.currentIndexChanged.connect(lambda _i: self._fill_precisions())
        buttons = QHBoxLayout()
        buttons.addWidget(self.import_panel, 1)
        buttons.addWidget(self.remove_button, 0, Qt.AlignmentFlag.AlignTop)
        form = QFormLayout()
        self.unload_idle = QSpinBox(tab)
        self.unload_idle.setRange(0, 1440)
        self.unload_idle.setSuffix(" min")
        self.unload_idle.setSpecialValueText("never")
        self.unload_idle.setAccessibleName("Unload the model after idle minutes")
        self.unload_idle.setToolTip("Frees the memory; Record loads the model again")
        self.unload_idle.setValue(self.settings.model.unload_idle_min)
        form.addRow("Model for files", self.file_model)
        form.addRow("Unload when idle for", self.unload_idle)
        form.addRow("Precision", self.precision)
        form.addRow("", precision_note(self.precision, tab))
        form.addRow("Runs on", self.provider)
        layout = QVBoxLayout(tab)
        layout.addWidget(self.model_list, 1)
        layout.addLayout(buttons)
        layout.addLayout(form)
        return tab

    def _text_tab(self) -> QWidget:
        tab = QWidget(self)
        self.language = QComboBox(tab)
        self.language.setAccessibleName("Language")
        self.language.addItem("Detect automatically", None)
        for code, name in LANGUAGES:
            self.language.addItem(name, code)
        self._select(self.language, self.settings.decode.language)
        self.task = QComboBox(tab)
        self.task.setAccessibleName("Task")
        self.task.addItem("Transcribe (same language)", "transcribe")
        self.task.addItem("Translate to English", "translate")
        self._select(self.task, self.settings.decode.task)
        self.vocabulary = QPlainTextEdit(", ".join(self.settings.decode.vocabulary), tab)
        self.vocabulary.setAccessibleName("Custom vocabulary")
        self.vocabulary.setPlaceholderText("Names and terms to spell right, e.g. Kubernetes, Nguyen")
        self.vocabulary.setTabChangesFocus(True)
        self.vocabulary.setFixedHeight(72)
        self.vocabulary_boost = vocabulary_boost_box(self.settings.decode.vocabulary_boost, tab)
        self.beam = file_accuracy_combo(self.settings.decode.file_beam_size, tab)
        self.language_hint = QLabel("This model understands English only: pick a multilingual "
                                    "model for other languages and translation.", tab)
        self.language_hint.setObjectName("muted")
        self.language_hint.setWordWrap(True)
        form = QFormLayout()
        form.addRow("Language", self.language)
        form.addRow("Task", self.task)
        form.addRow("", self.language_hint)
        form.addRow("Vocabulary", self.vocabulary)
        form.addRow("Favour these words", self.vocabulary_boost)
        form.addRow("Accuracy for files", self.beam)
        layout = QVBoxLayout(tab)
        layout.addLayout(form)
        layout.addStretch(1)
        return tab

    # --- models and precision --------------------------------------------------------

    def _load_models(self) -> None:
        try:
            self._models = self.controller.library.list_models()
        except Exception as exc:  # a broken model store must not stop the dialog
            log.exception("listing the models failed")
            self._models = []
            self.message.setText(f"Could not list models: {exc}")
        self.model_list.clear()
        self.file_model.clear()
        self.file_model.addItem("Same as live dictation", "")
        for info in self._models:
            self.file_model.addItem(info.name, info.name)
            item = QListWidgetItem(f"{info.name}   {info.detail}".rstrip())
            item.setData(Qt.ItemDataRole.UserRole, info.name)
            self.model_list.addItem(item)
            if info.name == self.settings.model.name:
                self.model_list.setCurrentItem(item)
        self._select(self.file_model, self.settings.model.file_name)

    def selected_model(self) -> ModelInfo | None:
        item = self.model_list.currentItem()
        name = item.data(Qt.ItemDataRole.UserRole) if item else None
        return next((m for m in self._models if m.name == name), None)

    def _on_model_changed(self) -> None:
        info = self.selected_model()
        multilingual = bool(info and info.multilingual)
        self.language.setEnabled(multilingual)
        self.task.setEnabled(multilingual)
        self.language.setToolTip("" if multilingual else "This model understands English only")
        self.language_hint.setVisible(not multilingual)
        self.remove_button.setEnabled(info is not None)

    def _fill_precisions(self) -> None:
        library = self.controller.library
        provider = self.provider.currentData()
        on_cpu = runs_on_cpu(provider, library.providers())
        current = self.precision.currentData() or self.settings.model.precision
        fill_precisions(self.precision, library.precision_support(provider), on_cpu, current)

    def _import_model(self) -> None:
        folder = self.choose_folder(self)
        if not folder:
            return
        self.message.setText("")
        self.import_panel.starting(Path(folder))
        self._import = self.controller.library.import_folder(Path(folder), self.import_panel.chosen_name(),
                                                             self.import_panel.show_step)
        self.import_panel.follow(self._import)
        self._import.succeeded.connect(self._imported)
        self._import.failed.connect(lambda error: self._import_done(import_error_text(str(error), Path(folder))))

    def _imported(self, info: object) -> None:
        if isinstance(info, ModelInfo):
            self.settings.model.name = info.name
            self._import_done(f"Imported {info.name}.")

    def _import_done(self, message: str) -> None:
        self.message.setText(message)
        self._load_models()

    def _remove_model(self) -> None:
        info = self.selected_model()
        if info is None:
            return
        refused = self.controller.library.remove(info.name)  # off the GUI thread; `removed` follows
        self.message.setText(refused or f"Removing {info.name}…")

    def _model_removed(self, name: str, error: str) -> None:
        self.message.setText(f"Could not remove {name}: {error}" if error else f"Removed {name}.")
        self._load_models()

    # --- applying --------------------------------------------------------------------

    def collect(self) -> Settings:
        settings = copy.deepcopy(self.settings)
        info = self.selected_model()
        if info is not None:
            settings.model.name = info.name
        settings.model.file_name = self.file_model.currentData() or ""
        settings.model.unload_idle_min = self.unload_idle.value()
        settings.model.precision = self.precision.currentData() or "auto"
        settings.model.provider = self.provider.currentData()
        settings.decode.language = self.language.currentData() if self.language.isEnabled() else None
        settings.decode.task = self.task.currentData() if self.task.isEnabled() else "transcribe"
        settings.decode.vocabulary = list(split_vocabulary(self.vocabulary.toPlainText()))
        settings.decode.vocabulary_boost = self.vocabulary_boost.value()
        settings.decode.file_beam_size = int(self.beam.currentData())
        self.dictation_page.collect_into(settings)
        self.window_page.collect_into(settings)
        settings.output = self.output_page.collect()
        settings.downloads = self.models_page.collect()
        settings.window.watch_folders = self.watch_page.collect()
        return settings

    def apply(self) -> bool:
        """Save and use the settings; False (nothing applied) when a field is not usable."""
        if self._hotkey_rejected():
            return False
        self.settings = self.collect()
        error = self.controller.apply_settings(self.settings)
        self.message.setText(error or "Settings applied.")
        return True

    def _hotkey_rejected(self) -> bool:
        """A hotkey that cannot work is shown next to its field, which gets the focus."""
        field = self.output_page.hotkey_field
        if not field.show_problem():
            return False
        self.tabs.setCurrentWidget(self.output_page)
        field.edit.setFocus(Qt.FocusReason.OtherFocusReason)
        self.message.setText("Nothing was applied: the hotkey needs fixing first.")
        return True

    def accept(self) -> None:
        if self.apply():
            super().accept()

    @staticmethod
    def _select(combo: QComboBox, value: object) -> None:
        index = combo.findData(value)
        combo.setCurrentIndex(max(0, index))


def _folder_dialog(parent: QWidget) -> str:
    from PySide6.QtWidgets import QFileDialog

    return QFileDialog.getExistingDirectory(parent, "Import a Whisper model folder")

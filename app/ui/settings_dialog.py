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
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.controller.app_controller import AppController
from app.controller.model_library import ModelImport
from app.controller.ports import ModelInfo
from app.settings.schema import Settings
from app.ui.dictation_settings import DictationSettingsPage
from app.ui.labels import provider_label
from app.ui.model_import import ImportPanel
from app.ui.models_page import ModelsPage
from app.ui.output_settings import OutputSettingsPage
from app.ui.settings_choices import (
    fill_precisions,
    import_error_text,
    precision_note,
    runs_on_cpu,
    select_data,
    show_every_tab,
)
from app.ui.transcription_settings import TranscriptionSettingsPage
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
        self.tabs = QTabWidget(self)
        self._add_pages(controller)
        show_every_tab(self.tabs)
        buttons = self._buttons()
        self.message = QLabel(self)
        self.message.setObjectName("muted")
        self.message.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(self.message)
        layout.addWidget(buttons)
        self._load_models()
        self._fill_precisions()

    def _add_pages(self, controller: AppController) -> None:
        """One tab per page; the fields tests and the dialog's own code read are named here."""
        tabs = self.tabs
        tabs.addTab(self._model_tab(), "Model")
        self.text_page = TranscriptionSettingsPage(self.settings, self)
        page = self.text_page
        self.language, self.task, self.vocabulary = page.language, page.task, page.vocabulary
        self.vocabulary_boost, self.beam = page.vocabulary_boost, page.beam
        tabs.addTab(page, "Transcription")
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

    def _buttons(self) -> QDialogButtonBox:
        """OK, Cancel and Apply, wired."""
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
        return buttons

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
        self.provider = self._provider_combo(tab)
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

    def _provider_combo(self, tab: QWidget) -> QComboBox:
        """Where the model runs: the CPU, then every provider this onnxruntime offers."""
        combo = QComboBox(tab)
        combo.setAccessibleName("Execution provider")
        combo.addItem("CPU (default)", None)
        for name in self.controller.library.providers():
            if name != "cpu":
                combo.addItem(provider_label(name), name)
        select_data(combo, self.settings.model.provider)
        combo.currentIndexChanged.connect(lambda _i: self._fill_precisions())
        return combo

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
        select_data(self.file_model, self.settings.model.file_name)

    def selected_model(self) -> ModelInfo | None:
        item = self.model_list.currentItem()
        name = item.data(Qt.ItemDataRole.UserRole) if item else None
        return next((m for m in self._models if m.name == name), None)

    def _on_model_changed(self) -> None:
        info = self.selected_model()
        self.text_page.show_multilingual(bool(info and info.multilingual))
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
        self._import = self.controller.library.import_folder(
            Path(folder), self.import_panel.chosen_name(), self.import_panel.show_step
        )
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
        self.text_page.collect_into(settings)
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


def _folder_dialog(parent: QWidget) -> str:
    from PySide6.QtWidgets import QFileDialog

    return QFileDialog.getExistingDirectory(parent, "Import a Whisper model folder")

"""The main window's status bar: the model, its quality, where it runs, the live text's delay
and the language; it shows what the controller's model and dictation signals say."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QMainWindow

from app.controller.app_controller import AppController
from app.controller.ports import EngineDescription
from app.ui.labels import delay_text, precision_status, provider_label
from app.ui.language_picker import LanguagePicker


class StatusLine:
    """The permanent widgets of `window`'s status bar, made and kept up to date here."""

    def __init__(self, window: QMainWindow, controller: AppController) -> None:
        self.controller = controller
        self.model_label = QLabel("Loading model…", window)
        self.precision_label = QLabel(window)
        self.provider_label = QLabel(window)
        self.latency_label = QLabel(window)
        bar = window.statusBar()
        for label, name in (
            (self.model_label, "Model"),
            (self.precision_label, "Precision"),
            (self.provider_label, "Provider"),
            (self.latency_label, "Delay of the live text"),
        ):
            label.setAccessibleName(name)
            bar.addPermanentWidget(label)
        self.language_picker = LanguagePicker(controller, window)
        bar.addPermanentWidget(self.language_picker)
        bar.setSizeGripEnabled(False)

    def show_loading(self) -> None:
        self.model_label.setText(f"Loading {self.controller.settings.model.name}…")

    def show_loaded(self, description: EngineDescription) -> None:
        self.model_label.setText(f"Model {description.model}")
        text, tip = precision_status(description.precision)
        self.precision_label.setText(text)
        self.precision_label.setToolTip(tip)
        self.provider_label.setText(f"Runs on {provider_label(description.provider).split(' (')[0]}")

    def show_failed(self) -> None:
        self.model_label.setText("No model loaded")

    def show_latency(self, ms: float) -> None:
        """`ms`: how long after the words were spoken the latest commit came."""
        text, tip = delay_text(ms)
        self.latency_label.setText(text)
        self.latency_label.setToolTip(tip)

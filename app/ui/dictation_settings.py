"""The "Dictation" page of the settings dialog: microphone, voice detection, punctuation."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QSlider, QWidget

from app.audio.microphones import Microphone
from app.settings.schema import DictationSettings, Settings
from app.ui.microphone_picker import MicrophoneCombo
from app.ui.settings_choices import check_box, form_page, seconds_box


class DictationSettingsPage(QWidget):
    """Shows `settings`' dictation choices; `collect_into` writes them back."""

    def __init__(self, settings: Settings, devices: list[Microphone], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        chosen = settings.dictation
        self.device = MicrophoneCombo(self)
        self.device.set_devices(devices, chosen.input_device)  # listed afresh: a microphone plugged in since
        self.vad = _sensitivity_slider(self, chosen.vad_sensitivity)
        self.min_silence = seconds_box(
            self,
            "Pause that ends a sentence",
            0.2,
            3.0,
            chosen.min_silence_s,
            "Text is committed after a pause this long; longer waits out thinking pauses",
        )
        self.speech_pad = seconds_box(
            self,
            "Audio kept before speech",
            0.0,
            1.0,
            chosen.speech_pad_s,
            "Keeps soft first sounds that voice detection hears late",
        )
        self.close_sentences, self.keep_audio = _punctuation_and_playback(self, chosen)
        form_page(
            self,
            [
                ("Microphone", self.device),
                ("Voice sensitivity", self.vad),
                ("Pause that ends a sentence", self.min_silence),
                ("Audio kept before speech", self.speech_pad),
                ("Punctuation", self.close_sentences),
                ("Playback", self.keep_audio),
            ],
        )

    def collect_into(self, settings: Settings) -> None:
        settings.dictation.input_device = self.device.currentData()
        settings.dictation.vad_sensitivity = self.vad.value() / 100
        settings.dictation.min_silence_s = round(self.min_silence.value(), 2)
        settings.dictation.speech_pad_s = round(self.speech_pad.value(), 2)
        settings.dictation.close_sentences = self.close_sentences.isChecked()
        settings.dictation.keep_audio = self.keep_audio.isChecked()


def _sensitivity_slider(parent: QWidget, sensitivity: float) -> QSlider:
    """Voice detection sensitivity, 0..1 shown as 0..100."""
    slider = QSlider(Qt.Orientation.Horizontal, parent)
    slider.setAccessibleName("Voice detection sensitivity")
    slider.setRange(0, 100)
    slider.setValue(round(sensitivity * 100))
    slider.setToolTip("Higher hears quieter speech; lower ignores more background noise")
    return slider


def _punctuation_and_playback(parent: QWidget, chosen: DictationSettings) -> tuple[QCheckBox, QCheckBox]:
    """The "End sentences with a period" and "Keep dictation audio" check boxes."""
    close_sentences = check_box(
        parent,
        "End sentences with a period at pauses and when I stop",
        "End sentences with a period",
        "A period between sentences you ended with a pause, and one when you stop "
        "mid-sentence; off keeps only the punctuation you or the model wrote",
        chosen.close_sentences,
    )
    keep_audio = check_box(
        parent,
        "Keep dictation audio for playback",
        "Keep dictation audio for playback",
        "Each dictation's recording stays in Earshot's private data folder while its "
        "History entry exists, so a clicked word can be heard again; deleting the "
        "entry deletes it",
        chosen.keep_audio,
    )
    return close_sentences, keep_audio

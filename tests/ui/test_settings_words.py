"""The settings dialog in plain words: an accuracy/speed choice instead of a beam size, the
precisions with what they cost (fp16 hidden on a CPU, where it is emulated), no developer text,
and an import error that names the folder the user chose."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from app.controller.app_controller import AppController, AppParts
from app.ui.settings_dialog import SettingsDialog


def _dialog(qtbot: QtBot, parts: AppParts) -> SettingsDialog:
    dialog = SettingsDialog(AppController(parts))
    qtbot.addWidget(dialog)
    return dialog


def _items(combo) -> list[str]:
    return [combo.itemText(i) for i in range(combo.count())]


def test_labels_say_what_the_choices_mean(qtbot: QtBot, parts: AppParts) -> None:
    dialog = _dialog(qtbot, parts)
    shown = " ".join(label.text() for label in dialog.findChildren(QLabel))
    for jargon in ("Beam size", "Committed text", "python-xlib", "xdotool", "X11:"):
        assert jargon not in shown, jargon
    assert "Accuracy for files" in shown and "Your words go" in shown
    assert _items(dialog.beam) == ["More accurate (slower)", "Faster"]
    assert dialog.beam.currentData() == 5  # the default file beam size
    assert "30 % more time" in dialog.beam.itemData(0, 3)  # ToolTipRole: the measured cost


def test_a_hand_set_beam_size_is_kept_as_custom(qtbot: QtBot, parts: AppParts) -> None:
    settings = parts.settings_store.load().settings
    settings.decode.file_beam_size = 3
    parts.settings_store.save(settings)
    dialog = _dialog(qtbot, parts)
    assert dialog.beam.currentText() == "Custom (weighs 3 candidate wordings)"
    assert dialog.collect().decode.file_beam_size == 3


def test_precisions_say_what_they_cost_and_fp16_is_hidden_on_a_cpu(qtbot: QtBot, parts: AppParts) -> None:
    dialog = _dialog(qtbot, parts)
    assert dialog.provider.currentData() is None and parts.catalog.providers() == ["cpu"]  # this machine
    choices = dict(zip([dialog.precision.itemData(i) for i in range(dialog.precision.count())],
                       _items(dialog.precision), strict=True))
    assert "fp16" not in choices  # emulated on a CPU: slower than fp32
    assert choices["int8"] == "Balanced"
    assert choices["fp32"] == "Best quality"
    assert choices["int4"] == "Smallest"
    index = dialog.precision.findData("int4")
    assert "7.3 %" in dialog.precision.model().item(index).toolTip()
    dialog.precision.setCurrentIndex(index)  # the line under the menu says what it costs
    note = next(label for label in dialog.findChildren(QLabel) if label.accessibleName() == "What this precision costs")
    assert note.text() == "The fastest and the smallest, with more words wrong."
    assert note.toolTip() == "4-bit weights: 8 % faster than int8 but more words wrong (7.3 % against 5.6 %)"


def test_a_saved_fp16_choice_is_still_shown(qtbot: QtBot, parts: AppParts) -> None:
    settings = parts.settings_store.load().settings
    settings.model.precision = "fp16"
    parts.settings_store.save(settings)
    dialog = _dialog(qtbot, parts)
    assert dialog.precision.currentData() == "fp16"  # nothing the user chose is lost


def test_an_import_error_names_the_chosen_folder(qtbot: QtBot, parts: AppParts, tmp_path: Path) -> None:
    folder = tmp_path / "my-whisper"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({"vocab_size": 51864}))
    (folder / "model.safetensors").write_bytes(b"not a model")
    dialog = _dialog(qtbot, parts)
    dialog.choose_folder = lambda _parent: str(folder)
    dialog.import_button.click()
    qtbot.waitUntil(lambda: dialog.import_button.isEnabled(), timeout=60_000)
    message = dialog.message.text()
    assert message.startswith(f"Import failed: {folder}")
    assert "/.my-whisper-" not in message and "models/" not in message, message
    assert str(folder / "config.json") in message

"""The settings dialog: choices round-trip to the TOML file and take effect at once (a
precision change reloads the real model in the background); a corrupt file is survived."""

from __future__ import annotations

import tomllib
from pathlib import Path

from gui_helpers import MODEL_LOAD_TIMEOUT_MS, open_window, wait_model_ready
from PySide6.QtWidgets import QDialogButtonBox

from app.controller.app_controller import AppController
from app.controller.states import ModelState
from app.settings.store import SettingsStore
from app.ui.labels import PRECISION_LABELS
from app.ui.settings_dialog import SettingsDialog


def test_precision_change_is_saved_and_reloads_the_model(qtbot, parts) -> None:
    window = open_window(qtbot, parts)
    wait_model_ready(qtbot, window)
    resolved = window.controller.models.description.precision  # what `auto` chose here
    assert resolved in ("fp32", "fp16", "int8", "int4")
    assert window.status_line.precision_label.text() == f"Quality: {PRECISION_LABELS[resolved]}"
    target = "fp32" if resolved == "int8" else "int8"
    dialog = SettingsDialog(window.controller, window)
    qtbot.addWidget(dialog)
    assert dialog.model_list.currentItem().text().startswith("tiny.en")
    assert not dialog.language.isEnabled()  # tiny.en is English-only
    dialog.precision.setCurrentIndex(dialog.precision.findData(target))
    dialog.beam.setCurrentIndex(dialog.beam.findData(1))  # "Faster"
    dialog.vocabulary.setPlainText("Thursday, Grafana\nSiobhan Okonkwo")
    dialog.vocabulary_boost.setValue(5.5)

    with qtbot.waitSignal(window.controller.models.loaded, timeout=MODEL_LOAD_TIMEOUT_MS) as loaded:
        dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok).click()
        assert window.status_line.model_label.text().startswith("Loading")  # reload runs behind the window
    assert loaded.args[0].precision == target
    assert window.status_line.precision_label.text() == f"Quality: {PRECISION_LABELS[target]}"

    on_disk = tomllib.loads(parts.settings_store.path.read_text())
    assert on_disk["model"]["precision"] == target
    assert on_disk["decode"] == {"task": "transcribe", "initial_prompt": "", "file_beam_size": 1,
                                 "vocabulary": ["Thursday", "Grafana", "Siobhan Okonkwo"], "vocabulary_boost": 5.5}
    restarted = AppController(parts)
    assert restarted.settings == window.controller.settings
    assert restarted.decode_options(for_files=True).beam_size == 1
    for_files, live = restarted.decode_options(for_files=True), restarted.decode_options(for_files=False)
    assert for_files.vocabulary == live.vocabulary == ("Thursday", "Grafana", "Siobhan Okonkwo")
    assert for_files.vocabulary_boost == live.vocabulary_boost == 5.5


def test_corrupt_settings_file_is_survived(qtbot, parts) -> None:
    path: Path = parts.settings_store.path
    path.parent.mkdir(parents=True)
    path.write_text('version = 1\n[model\nprecision = "int8"\n')
    window = open_window(qtbot, parts, load=False)
    assert window.notice.isVisible()
    assert "settings.toml.bak" in window.notice.label.text()
    assert window.controller.settings.model.precision == "auto"
    assert (path.parent / "settings.toml.bak").read_text().startswith("version = 1\n[model\n")
    window.notice.dismiss.click()
    assert not window.notice.isVisible()
    # the next save writes a good file again
    window.controller.apply_settings(window.controller.settings)
    assert SettingsStore(path).load().notice is None


def test_a_failed_reload_keeps_the_working_model(qtbot, parts) -> None:
    window = open_window(qtbot, parts)
    wait_model_ready(qtbot, window)
    broken = window.controller.settings.__class__()
    broken.model.name = "/nowhere/whisper-medium"
    with qtbot.waitSignal(window.controller.models.kept_previous, timeout=MODEL_LOAD_TIMEOUT_MS):
        window.controller.apply_settings(broken)
    assert window.controller.models.state == ModelState.READY
    assert window.notice.isVisible()
    assert "whisper-medium" in window.notice.label.text()
    assert window.notice.label.text().endswith("Still using tiny.en.")
    assert window.status_line.model_label.text() == "Model tiny.en"
    assert window.record_bar.title.text() == "Ready"


def test_pause_padding_and_punctuation_settings_reach_the_next_dictation(qtbot, parts) -> None:
    """The dictation tab's pause, padding and "end sentences with a period" are saved, and the
    next session's voice detection and policy use them (the real factory runs; the test only
    records the sessions it opens)."""
    import dataclasses

    from gui_helpers import DATA

    from app.composition import open_dictation
    from app.controller.ports import AudioSource
    from app.controller.states import RecordState

    sessions = []

    def recording_factory(request, emit):  # type: ignore[no-untyped-def]
        sessions.append(open_dictation(request, emit))
        return sessions[-1]

    window = open_window(qtbot, dataclasses.replace(parts, dictation_factory=recording_factory))
    wait_model_ready(qtbot, window)
    dialog = SettingsDialog(window.controller, window)
    qtbot.addWidget(dialog)
    assert dialog.min_silence.value() == 0.5 and dialog.speech_pad.value() == 0.3  # the defaults
    dialog.min_silence.setValue(1.2)
    dialog.speech_pad.setValue(0.4)
    assert dialog.dictation_page.close_sentences.isChecked()  # on by default
    dialog.dictation_page.close_sentences.setChecked(False)
    dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok).click()
    on_disk = tomllib.loads(parts.settings_store.path.read_text())
    assert on_disk["dictation"]["min_silence_s"] == 1.2 and on_disk["dictation"]["speech_pad_s"] == 0.4
    assert on_disk["dictation"]["close_sentences"] is False

    window.controller.dictation.source_override = AudioSource(replay_file=DATA / "espeak_meeting.wav", realtime=False)
    window.record_bar.button.click()
    qtbot.waitUntil(lambda: window.controller.dictation.state == RecordState.IDLE, timeout=120_000)
    [session] = sessions
    vad = session._worker.options.vad  # what the worker's voice detection runs with
    assert (vad.min_silence_s, vad.speech_pad_s) == (1.2, 0.4)
    assert session._worker.options.policy.close_sentences is False  # no added periods this session
    assert "meeting" in window.transcript.committed_text.lower()

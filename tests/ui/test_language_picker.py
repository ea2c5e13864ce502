"""The spoken language in the main window: the status bar shows the language heard in the last
file (or the one chosen), and its menu changes it without opening Settings; an English-only
model says why it cannot change. Real window, real tiny.en model and file jobs."""

from __future__ import annotations

import dataclasses
import tomllib

from gui_helpers import DATA, MODEL_LOAD_TIMEOUT_MS, open_window, wait_model_ready

from app.ui.main_window import MainWindow


def _action(window: MainWindow, text: str):  # type: ignore[no-untyped-def]
    return next(a for a in window.status_line.language_picker.choices.actions() if a.text() == text)


def test_an_english_only_model_shows_english_and_says_why(qtbot, parts) -> None:
    window = open_window(qtbot, parts)
    wait_model_ready(qtbot, window)
    picker = window.status_line.language_picker
    assert picker.isVisible() and picker.text() == "Language: English"
    assert not picker.isEnabled() and "multilingual model" in picker.toolTip()


def test_the_heard_language_is_shown_and_changed_from_the_window(qtbot, parts) -> None:
    window = open_window(qtbot, parts)
    wait_model_ready(qtbot, window)
    picker = window.status_line.language_picker
    # No multilingual model exists on the test machine: the loaded description says the model is
    # one (the signal the model manager sends); the file below is transcribed by the real tiny.en.
    multilingual = dataclasses.replace(window.controller.models.description, multilingual=True)
    window.controller.models.loaded.emit(multilingual)
    assert picker.isEnabled() and picker.text() == "Language: Detect"
    with qtbot.waitSignal(window.controller.jobs.job_finished, timeout=MODEL_LOAD_TIMEOUT_MS):
        window.controller.add_files([DATA / "espeak_weather.wav"])
    assert picker.text() == "Language: Detect (heard English)"

    _action(window, "French").trigger()  # from the button's menu
    assert picker.text() == "Language: French"
    assert window.controller.settings.decode.language == "fr"
    assert tomllib.loads(parts.settings_store.path.read_text())["decode"]["language"] == "fr"
    assert window.controller.decode_options(for_files=True).language == "fr"
    _action(window, "Detect automatically").trigger()
    assert picker.text() == "Language: Detect (heard English)"
    assert window.controller.settings.decode.language is None

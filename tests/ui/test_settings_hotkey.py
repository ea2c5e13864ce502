"""The hotkey field of the settings dialog: a hotkey that cannot work is refused next to the
field (nothing applied, the dialog stays open), the message goes once it is fixed, and
"Press keys…" records the chord the user presses."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot

from app.controller.app_controller import AppController, AppParts
from app.settings.store import SettingsStore
from app.ui.settings_dialog import SettingsDialog


def _dialog(qtbot: QtBot, parts: AppParts) -> SettingsDialog:
    dialog = SettingsDialog(AppController(parts))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def test_an_unknown_key_is_refused_next_to_the_field(qtbot: QtBot, parts: AppParts) -> None:
    dialog = _dialog(qtbot, parts)
    field = dialog.output_page.hotkey_field
    field.edit.setText("ctrl+banana")
    dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok).click()
    assert dialog.isVisible()  # OK did not close it
    assert dialog.tabs.currentWidget() is dialog.output_page  # the user sees the field
    assert field.error.isVisible()
    assert "unknown key 'banana'" in field.error.text()
    assert dialog.message.text() != "Settings applied."
    assert dialog.controller.settings.output.hotkey == "ctrl+alt+space"  # nothing applied
    assert not parts.settings_store.path.exists()

    field.edit.setText("ctrl+alt+b")  # fixed: the message goes at once
    assert not field.error.isVisible()
    dialog.apply_button.click()
    assert dialog.message.text() == "Settings applied."
    assert SettingsStore(parts.settings_store.path).load().settings.output.hotkey == "ctrl+alt+b"


def test_press_keys_records_the_chord(qtbot: QtBot, parts: AppParts) -> None:
    dialog = _dialog(qtbot, parts)
    dialog.tabs.setCurrentWidget(dialog.output_page)
    field = dialog.output_page.hotkey_field
    field.record_button.click()
    assert field.edit.placeholderText().startswith("Press the keys now")
    qtbot.keyPress(field.edit, Qt.Key.Key_Control, Qt.KeyboardModifier.ControlModifier)  # not done yet
    assert field.edit.text() == ""
    qtbot.keyClick(field.edit, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)
    assert field.edit.text() == "ctrl+alt+d"
    assert not field.recording and field.record_button.text() == "Press keys…"
    qtbot.keyClick(field.edit, Qt.Key.Key_X)  # recording is over: keys type again
    assert field.edit.text() == "ctrl+alt+dx"

    field.record_button.click()
    qtbot.keyClick(field.edit, Qt.Key.Key_F9, Qt.KeyboardModifier.ShiftModifier)
    assert field.edit.text() == "shift+f9"
    field.record_button.click()
    qtbot.keyClick(field.edit, Qt.Key.Key_Escape)  # Esc keeps what was there
    assert field.edit.text() == "shift+f9"


def test_a_fixed_hotkey_takes_its_old_banner_away(qtbot: QtBot, parts: AppParts, monkeypatch) -> None:
    """Here there is no X display, so grabbing any hotkey really fails (as on a desktop where
    another app holds the keys); choosing none fixes it, and the banner must not stay."""
    from gui_helpers import open_window
    from PySide6.QtWidgets import QApplication

    from app.composition import build_desktop_output, parse_gui_args

    monkeypatch.delenv("DISPLAY", raising=False)
    window = open_window(qtbot, parts, load=False)
    output = build_desktop_output(QApplication.instance(), window, window.controller, parse_gui_args([]))
    try:
        settings = window.controller.settings.__class__()
        settings.output.hotkey = "ctrl+alt+j"
        window.controller.apply_settings(settings)
        assert window.notice.isVisible()
        assert window.notice.label.text().startswith("The hotkey ctrl+alt+j is not available")
        settings.output.hotkey = ""
        window.controller.apply_settings(settings)
        assert not window.notice.isVisible()
    finally:
        output.shutdown()

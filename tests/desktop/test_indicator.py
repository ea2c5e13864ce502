"""The dictation indicator shows the state without taking the focus, and hides when idle.
(Under Xvfb, the end-to-end tests also check that the focused app keeps the focus.)"""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.controller.states import RecordState
from app.ui.indicator import DictationIndicator


def test_the_indicator_shows_listening_and_hides_when_idle(qtbot: QtBot) -> None:
    indicator = DictationIndicator(hint="ctrl+alt+space")
    qtbot.addWidget(indicator)
    indicator.set_state(RecordState.LISTENING)
    assert indicator.isVisible()
    assert indicator.text.startswith("Listening") and "ctrl+alt+space" in indicator.text
    assert indicator.windowFlags() & Qt.WindowType.WindowDoesNotAcceptFocus
    assert indicator.windowFlags() & Qt.WindowType.WindowStaysOnTopHint
    assert indicator.testAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)
    indicator.set_state(RecordState.HEARING_SPEECH)
    assert indicator.text.startswith("Hearing speech")
    indicator.set_state(RecordState.IDLE)
    assert not indicator.isVisible()


def test_an_error_is_shown_with_its_reason_then_the_indicator_hides(qtbot: QtBot) -> None:
    indicator = DictationIndicator(error_shown_ms=200)
    qtbot.addWidget(indicator)
    indicator.set_state(RecordState.ERROR, "No microphone found.")
    assert indicator.isVisible() and indicator.text == "No microphone found."
    qtbot.waitUntil(lambda: not indicator.isVisible(), timeout=10000)


def test_a_click_asks_to_toggle(qtbot: QtBot) -> None:
    indicator = DictationIndicator()
    qtbot.addWidget(indicator)
    indicator.set_state(RecordState.LISTENING)
    with qtbot.waitSignal(indicator.clicked, timeout=2000):
        qtbot.mouseClick(indicator, Qt.MouseButton.LeftButton)

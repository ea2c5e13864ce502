"""What the record bar and the tray show: Record is off (with a busy bar) while the model loads,
the level meter says what orange means, and the tray shows an error unlike recording."""

from __future__ import annotations

from gui_helpers import open_window, wait_model_ready
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from app.controller.app_controller import AppController, AppParts
from app.controller.states import ModelState, RecordState
from app.ui.icons import icon
from app.ui.main_window import MainWindow
from app.ui.record_bar import RecordBar
from app.ui.tray import TRAY_ICON, Tray

TRAY_ICON_SIZE = 32


def test_record_is_off_while_the_model_loads(qtbot: QtBot, parts: AppParts) -> None:
    window = open_window(qtbot, parts, load=False)
    bar = window.record_bar
    assert bar.button.isEnabled() and not bar.loading.isVisible()
    window.controller.start()
    assert window.controller.models.state == ModelState.LOADING
    assert not bar.button.isEnabled()
    assert bar.title.text() == "Loading model…"
    assert bar.loading.isVisible() and bar.loading.maximum() == 0  # a busy bar
    assert not window.actions_["record"].isEnabled()
    wait_model_ready(qtbot, window)
    assert bar.button.isEnabled() and not bar.loading.isVisible()
    assert window.actions_["record"].isEnabled()
    assert bar.title.text() == "Ready"


def test_the_level_meter_says_orange_is_too_loud(qtbot: QtBot) -> None:
    bar = RecordBar()
    qtbot.addWidget(bar)
    bar.show()
    assert "orange means too loud" in bar.meter.toolTip()
    bar.meter.set_level(0.2)
    assert not bar.loud_warning.isVisible()
    bar.meter.set_level(0.95)  # close to clipping: the bar is orange
    assert bar.loud_warning.isVisible()
    assert bar.loud_warning.text().startswith("Too loud")
    assert bar.meter.accessibleDescription().endswith("too loud")
    qtbot.waitUntil(lambda: not bar.loud_warning.isVisible(), timeout=3000)  # the level falls back


def _tray_image(tray: Tray) -> QImage:
    return tray.icon.icon().pixmap(TRAY_ICON_SIZE, TRAY_ICON_SIZE).toImage()


def test_the_tray_shows_an_error_unlike_recording(qtbot: QtBot, parts: AppParts) -> None:
    tray = Tray()
    window = MainWindow(AppController(parts), tray)
    qtbot.addWidget(window)
    tray.set_state(RecordState.LISTENING, "")
    recording = _tray_image(tray)
    tray.set_state(RecordState.ERROR, "No microphone found")
    error = _tray_image(tray)
    assert "No microphone found" in tray.icon.toolTip()
    centre = TRAY_ICON_SIZE // 2
    assert recording.pixelColor(centre, centre + 2) != error.pixelColor(centre, centre + 2)
    background = [img.pixelColor(5, centre) for img in (recording, error)]
    assert background[0] != background[1]  # a different colour, not only a different mark
    assert icon(TRAY_ICON[RecordState.ERROR]).cacheKey() != icon(TRAY_ICON[RecordState.LISTENING]).cacheKey()

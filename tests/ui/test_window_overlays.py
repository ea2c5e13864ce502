"""What floats over or sits in the window stays readable: the "Listening" pill keeps off the
window's status bar and record bar, a long error in it wraps within the window's width, and the
file jobs' icons are light on the dark theme (after switching to it too)."""

from __future__ import annotations

from gui_helpers import DATA, contrast, open_window
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QColor, QIcon
from PySide6.QtWidgets import QApplication, QWidget

from app.controller.states import RecordState
from app.ui.indicator import DictationIndicator
from app.ui.main_window import MainWindow

LONG_ERROR = ("The microphone “USB Audio Device Analog Stereo” stopped delivering audio (it was unplugged "
              "or another program took it): plug it in again, or choose another one in the list beside "
              "Record, then press Record to go on dictating where you stopped.")


def _global(widget: QWidget) -> QRect:
    return QRect(widget.mapToGlobal(QPoint(0, 0)), widget.size())


def _pill(qtbot, window: MainWindow) -> DictationIndicator:
    pill = DictationIndicator(hint="ctrl+alt+space")
    qtbot.addWidget(pill)
    pill.avoid = window  # as DesktopOutput sets it
    return pill


def test_the_pill_never_covers_the_status_bar_or_record_bar(qtbot, parts) -> None:
    window = open_window(qtbot, parts, load=False)
    screen = window.screen().availableGeometry()
    pill = _pill(qtbot, window)
    for geometry in (screen, QRect(screen.x(), screen.y(), 700, 440),
                     QRect(screen.x(), screen.bottom() - 440, 700, 440)):  # filling the screen, top, bottom
        window.setGeometry(geometry)
        qtbot.waitUntil(lambda g=geometry: window.geometry() == g)
        pill.set_state(RecordState.LISTENING)
        assert pill.isVisible() and screen.contains(pill.geometry()), (geometry, pill.geometry())
        assert not pill.geometry().intersects(_global(window.statusBar())), geometry
        assert not pill.geometry().intersects(_global(window.record_bar)), geometry
        if geometry != screen:  # where the screen has room, the window is not covered at all
            assert not pill.geometry().intersects(window.frameGeometry()), geometry


def test_a_long_error_wraps_within_the_window(qtbot, parts) -> None:
    window = open_window(qtbot, parts, load=False)
    window.resize(700, 480)
    pill = _pill(qtbot, window)
    pill.set_state(RecordState.ERROR, LONG_ERROR)
    assert pill.isVisible() and pill.text == LONG_ERROR
    assert pill.width() <= window.width()
    assert window.screen().availableGeometry().contains(pill.geometry())
    room = pill.text_rect().toRect()
    needed = pill.fontMetrics().boundingRect(room, Qt.TextFlag.TextWordWrap, LONG_ERROR)
    assert needed.height() <= room.height() and needed.width() <= room.width()  # every word shown


def _ink(icon: QIcon) -> QColor:
    """The mean colour of an icon's drawn (opaque) pixels."""
    image = icon.pixmap(16, 16).toImage()
    pixels = [image.pixelColor(x, y) for x in range(image.width()) for y in range(image.height())]
    drawn = [p for p in pixels if p.alpha() > 200]
    assert drawn
    return QColor(*(round(sum(getattr(p, c)() for p in drawn) / len(drawn)) for c in ("red", "green", "blue")))


def test_file_icons_stand_out_on_the_dark_theme(qtbot, parts) -> None:
    window = open_window(qtbot, parts, load=False)  # no model: the job waits, its row shows Cancel
    before = window.controller.jobs.add([DATA / "espeak_weather.wav"])[0]
    settings = window.controller.settings.__class__()
    settings.window.theme = "dark"
    try:
        window.controller.apply_settings(settings)
        after = window.controller.jobs.add([DATA / "espeak_meeting.wav"])[0]
        for job in (before, after):  # a row made before the switch, and one made after it
            row = window.jobs_panel.rows[job.id]
            qtbot.waitUntil(row.cancel_button.isVisible)
            background = row.grab().toImage().pixelColor(4, row.height() // 2)
            assert background.lightness() < 80, background.name()  # the dark theme's row
            assert contrast(_ink(row.cancel_button.icon()), background) >= 3.0, job.path.name
            state_icon = QIcon(row.icon.pixmap())
            assert contrast(_ink(state_icon), background) >= 3.0, job.path.name
    finally:
        window.controller.apply_settings(window.controller.settings.__class__())
        QApplication.processEvents()

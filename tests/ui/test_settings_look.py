"""The settings dialog as a user first sees it: every tab's whole name in view at the default
size, the model catalog without sideways scrolling, the theme on its own tab, and an offline
download that names the tab where the mirror is and leaves no bar frozen at 0 %."""

from __future__ import annotations

from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QTabWidget, QToolButton, QWidget

from app.controller.app_controller import AppController
from app.ui.settings_dialog import SettingsDialog


def _dialog(qtbot, parts) -> SettingsDialog:
    dialog = SettingsDialog(AppController(parts))
    qtbot.addWidget(dialog)
    dialog.show()  # at the size it opens with
    qtbot.waitExposed(dialog)
    return dialog


def _tab_of(tabs: QTabWidget, widget: QWidget) -> str:
    return next(tabs.tabText(i) for i in range(tabs.count()) if tabs.widget(i).isAncestorOf(widget))


def test_every_tab_name_is_whole_at_the_default_size(qtbot, parts) -> None:
    dialog = _dialog(qtbot, parts)
    bar = dialog.tabs.tabBar()
    names = [bar.tabText(i) for i in range(bar.count())]
    assert names == ["Model", "Transcription", "Dictation", "Dictate into apps", "Watch folders",
                     "Download models", "Window"]
    metrics = QFontMetrics(bar.font())
    for i, name in enumerate(names):
        rect = bar.tabRect(i)
        assert bar.rect().contains(rect), (name, rect, bar.rect())
        assert rect.right() <= dialog.tabs.width(), name
        assert rect.width() >= metrics.horizontalAdvance(name), name  # not elided to "Down…"
    assert not any(b.isVisible() for b in bar.findChildren(QToolButton))  # no scroll arrows


def test_the_catalog_shows_every_column_without_scrolling(qtbot, parts) -> None:
    dialog = _dialog(qtbot, parts)
    page = dialog.models_page
    dialog.tabs.setCurrentWidget(page)
    qtbot.waitUntil(page.table.isVisible)
    header = page.table.horizontalHeader()
    status = page.table.columnCount() - 1
    assert header.model().headerData(status, header.orientation()) == "Status"
    assert header.sectionViewportPosition(status) + header.sectionSize(status) <= page.table.viewport().width()
    assert page.table.horizontalScrollBar().maximum() == 0
    installed_row = next(r for r in range(page.table.rowCount()) if page.table.item(r, 0).text() == "tiny.en")
    cell = page.table.visualItemRect(page.table.item(installed_row, status))
    assert QFontMetrics(page.table.font()).horizontalAdvance("Not installed") <= cell.width()


def test_the_theme_is_on_the_window_tab_not_dictation(qtbot, parts) -> None:
    dialog = _dialog(qtbot, parts)
    assert _tab_of(dialog.tabs, dialog.theme) == "Window"
    assert _tab_of(dialog.tabs, dialog.close_to_tray) == "Window"
    assert not dialog.dictation_page.isAncestorOf(dialog.theme)


def test_an_offline_download_names_the_tab_with_the_mirror(qtbot, parts) -> None:
    dialog = _dialog(qtbot, parts)
    page = dialog.models_page
    dialog.tabs.setCurrentWidget(page)
    assert not page.progress.isVisible()  # nothing downloading: no empty bar
    page.mirror.setText("http://earshot-offline.invalid")  # a host no resolver knows: offline
    # A model no test installs ("base" is imported into the session's store by the multilingual tests).
    page.table.selectRow(next(r for r in range(page.table.rowCount()) if page.table.item(r, 0).text() == "small"))
    assert page.download_button.isEnabled()
    with qtbot.waitSignal(page.downloads.failed, timeout=60_000):
        page.download_button.click()
        assert page.progress.isVisible()
        assert page.progress.maximum() == 0  # busy, not "0 %", until bytes are counted
    text = page.status.text()
    assert "download failed" in text and "Settings > Download models > Mirror" in text, text
    assert _tab_of(dialog.tabs, page.mirror) == "Download models"
    assert not page.progress.isVisible()

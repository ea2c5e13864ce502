"""Settings > Download models with real widgets (pytest-qt), the real controller and the local hub:
a user downloads the multilingual base with a progress bar, picks it for live dictation and files."""

from __future__ import annotations

from pathlib import Path

import pytest
from hub_server import HubServer
from PySide6.QtCore import QSettings

from app.composition import build_parts
from app.controller.app_controller import AppController
from app.controller.states import ModelState
from app.engine.models.download_progress import Phase, Progress
from app.ui.settings_dialog import SettingsDialog


@pytest.fixture
def dialog(qtbot, qapp, hub: HubServer, tmp_path: Path) -> SettingsDialog:
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "qt"))
    parts = build_parts(tmp_path / "config" / "settings.toml", tmp_path / "history.sqlite3")
    controller = AppController(parts)
    dialog = SettingsDialog(controller)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def _row(dialog: SettingsDialog, name: str) -> int:
    page = dialog.models_page
    return next(r for r in range(page.table.rowCount()) if page.table.item(r, 0).text() == name)


def test_catalog_shows_what_is_installed_without_a_request(dialog: SettingsDialog, hub: HubServer) -> None:
    page = dialog.models_page
    assert page.table.rowCount() == 11
    assert page.status_of("tiny.en") == "Installed" and page.status_of("base") == "Not installed"
    assert page.table.item(_row(dialog, "base"), 2).text() == "145 MB"
    assert hub.requests == []  # the catalog is data in the app: opening it asks nobody


def test_download_with_progress_then_pick_it_for_dictation_and_files(qtbot, dialog: SettingsDialog,
                                                                     hub: HubServer) -> None:
    hub.faults.bytes_per_second = 30_000_000  # a few seconds: progress is seen while it runs
    page = dialog.models_page
    seen: list[int] = []
    page.downloads.progress.connect(lambda _n, p: seen.append(page.progress.value())
                                    if isinstance(p, Progress) and p.phase is Phase.DOWNLOADING else None)
    page.table.selectRow(_row(dialog, "base"))
    page.download_button.click()
    assert page.status_of("base") == "Downloading" and page.cancel_button.isEnabled()
    with qtbot.waitSignals([page.installed, page.downloads.checked], timeout=600_000):
        pass  # installed, then one 30 s window timed on this machine
    assert len([v for v in seen if 0 < v < 100]) >= 10 and max(seen) >= 99  # a bar that moves
    assert page.status.text().startswith("base is installed")
    assert page.status_of("base") == "Installed"
    assert "s per 30 s" in page.table.item(_row(dialog, "base"), 4).text()
    assert page.recommendation.text()  # the largest that keeps up, or that none does
    names = [dialog.model_list.item(i).text().split()[0] for i in range(dialog.model_list.count())]
    assert "base" in names  # selectable for live dictation ...
    assert dialog.file_model.findData("base") >= 0  # ... and for files
    dialog.model_list.setCurrentRow(names.index("base"))
    dialog.file_model.setCurrentIndex(dialog.file_model.findData("base"))
    dialog.apply()
    controller = dialog.controller
    assert (controller.settings.model.name, controller.settings.model.file_name) == ("base", "base")
    qtbot.waitUntil(lambda: controller.models.state in (ModelState.READY, ModelState.FAILED), timeout=600_000)
    assert controller.models.state is ModelState.READY
    assert controller.models.description is not None and "base" in str(controller.models.description.model)


def test_cancel_in_the_page_leaves_nothing(qtbot, dialog: SettingsDialog, hub: HubServer, tmp_path: Path) -> None:
    hub.faults.bytes_per_second = 5_000_000
    page = dialog.models_page
    page.table.selectRow(_row(dialog, "base"))
    page.download_button.click()
    qtbot.waitUntil(lambda: page.progress.value() > 0, timeout=60_000)
    with qtbot.waitSignal(page.downloads.cancelled, timeout=60_000):
        page.cancel_button.click()
    assert page.status_of("base") == "Not installed"
    assert "cancelled" in page.status.text()
    assert not (tmp_path / "data" / "downloads" / "base").exists()
    assert not (tmp_path / "data" / "models" / "base").exists()

"""Settings > Download models: the catalog, installed or not, with download / cancel / delete and
progress (MB/s, time left). Downloads run in the controller (ModelDownloads); this page renders."""

from __future__ import annotations

import logging

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.controller.app_controller import AppController
from app.engine.models.catalog import CatalogModel, catalog
from app.engine.models.download_progress import Phase, Progress
from app.engine.models.machine_check import MachineCheck, cached_checks, recommend
from app.settings.schema import DownloadSettings

log = logging.getLogger(__name__)
_COLUMNS = ("Model", "Languages", "Download", "RAM", "This machine", "Status")


class ModelsPage(QWidget):
    """`installed(name)` fires once a downloaded model is installed and converted."""

    installed = Signal(str)

    def __init__(self, controller: AppController, downloads: DownloadSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.downloads = controller.downloads
        self._models = list(catalog())
        self.table = QTableWidget(len(self._models), len(_COLUMNS), self)
        self.table.setAccessibleName("Model catalog")
        self.table.setHorizontalHeaderLabels(_COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        fit_columns(self.table)
        self.repo = QLineEdit(self)
        self.repo.setPlaceholderText("or a repository id, e.g. openai/whisper-small")
        self.repo.setAccessibleName("Repository id")
        self.download_button = self._button("Download", self._download)
        self.cancel_button = self._button("Cancel download", self._cancel)
        self.delete_button = self._button("Delete", self._delete)
        self.check_button = self._button("Check this machine", self._check_machine)
        self.check_button.setToolTip("Time one 30 s window with each installed model (in the background)")
        self.recommendation = QLabel(self)
        self.recommendation.setAccessibleName("Recommended model")
        self._checks: dict[str, MachineCheck] = {}
        self.progress = QProgressBar(self)
        self.progress.setAccessibleName("Download progress")
        self.progress.hide()  # shown while a download runs
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.mirror = QLineEdit(downloads.mirror, self)
        self.mirror.setPlaceholderText("https://huggingface.co (or HF_ENDPOINT)")
        self.mirror.setAccessibleName("Download mirror")
        self.token = QLineEdit(downloads.token, self)
        self.token.setEchoMode(QLineEdit.EchoMode.Password)
        self.token.setAccessibleName("Access token")
        self._layout()
        self.downloads.progress.connect(self._on_progress)
        self.downloads.finished.connect(self._on_finished)
        self.downloads.failed.connect(lambda name, why: self._on_ended(name, f"{name}: download failed: {why}"))
        self.downloads.cancelled.connect(lambda name: self._on_ended(name, f"{name}: cancelled, nothing kept."))
        controller.library.removed.connect(self._removed)
        self.downloads.checked.connect(self._on_checked)
        self._load_cached_checks()
        self.refresh()

    def _button(self, text: str, slot: object) -> QPushButton:
        button = QPushButton(text, self)
        button.setAccessibleName(text)
        button.clicked.connect(slot)
        return button

    def _layout(self) -> None:
        buttons = QHBoxLayout()
        for button in (self.download_button, self.cancel_button, self.delete_button, self.check_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        form = QFormLayout()
        form.addRow("Mirror", self.mirror)
        form.addRow("Access token", self.token)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.repo)
        layout.addLayout(buttons)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addWidget(self.recommendation)
        layout.addLayout(form)

    def refresh(self) -> None:
        """Fill the table: installed or not, size, languages, RAM (int8 to fp32)."""
        installed = self._installed_names()
        for row, model in enumerate(self._models):
            state = "Installed" if model.name in installed else "Not installed"
            if self.downloads.running(model.name):
                state = "Downloading"
            check = self._checks.get(model.name)
            cells = (
                model.name,
                model.languages,
                f"{model.download_mb} MB",
                f"{model.ram_for('int8')}–{model.ram_for('fp32')} MB",
                check.line() if check else "",
                state,
            )
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                shown_whole = text if column == _COLUMNS.index("This machine") else ""
                item.setToolTip("\n".join(filter(None, (shown_whole, model.description, model.repo))))
                self.table.setItem(row, column, item)
        self._update_buttons()

    def selected(self) -> CatalogModel | None:
        rows = self.table.selectionModel().selectedRows()
        return self._models[rows[0].row()] if rows else None

    def status_of(self, name: str) -> str:
        row = next(i for i, m in enumerate(self._models) if m.name == name)
        item = self.table.item(row, len(_COLUMNS) - 1)
        return item.text() if item else ""

    def collect(self) -> DownloadSettings:
        return DownloadSettings(mirror=self.mirror.text().strip(), token=self.token.text().strip())

    def _installed_names(self) -> set[str]:
        try:
            return {m.name for m in self.controller.library.list_models()}
        except Exception:  # a broken store: everything shows as not installed
            log.exception("listing the models failed")
            return set()

    def _update_buttons(self) -> None:
        model = self.selected()
        installed = model is not None and model.name in self._installed_names()
        running = model is not None and self.downloads.running(model.name)
        self.download_button.setEnabled(not installed and not running)
        self.cancel_button.setEnabled(running)
        self.delete_button.setEnabled(installed and not running)

    def _download(self) -> None:
        model = self.selected()
        target = self.repo.text().strip() or (model.name if model else "")
        if not target:
            self.status.setText("Pick a model, or type a repository id.")
            return
        self.downloads.mirror, self.downloads.token = self.collect().mirror, self.collect().token
        try:
            name = self.downloads.start(target)
        except Exception as exc:  # a bad repository id or name: one line
            log.exception("starting the download of %s failed", target)
            self.status.setText(str(exc))
            return
        self.progress.setRange(0, 0)  # busy until the first bytes say how many there are
        self.progress.show()
        self.status.setText(f"{name}: starting…")
        self.refresh()

    def _cancel(self) -> None:
        if model := self.selected():
            self.downloads.cancel(model.name)

    def _delete(self) -> None:
        model = self.selected()
        if model is None:
            return
        refused = self.controller.library.remove(model.name)  # off the GUI thread; `removed` follows
        self.status.setText(refused or f"Deleting {model.name}…")

    def _removed(self, name: str, error: str) -> None:
        self.status.setText(f"Could not delete {name}: {error}" if error else f"Deleted {name}.")
        self.refresh()

    def _load_cached_checks(self) -> None:
        try:
            checks = cached_checks()
        except Exception:  # an unreadable cache: nothing measured yet
            log.exception("reading the machine checks failed")
            checks = []
        for check in checks:
            self._checks[check.model] = check
        self._show_recommendation()

    def _check_machine(self) -> None:
        names = sorted(self._installed_names() & {m.name for m in self._models})
        self.status.setText(f"Timing {', '.join(names)} on this machine…")
        self.downloads.check_machine(names)

    def _on_checked(self, name: str, check: object) -> None:
        if isinstance(check, MachineCheck):
            self._checks[name] = check
            self._show_recommendation()
            self.refresh()

    def _show_recommendation(self) -> None:
        best = recommend(list(self._checks.values()))
        if best:
            self.recommendation.setText(f"Recommended for live dictation on this machine: {best}")
        elif self._checks:
            self.recommendation.setText("None of the checked models keeps up with live dictation here.")

    def _on_progress(self, name: str, progress: object) -> None:
        if not isinstance(progress, Progress):
            return
        if progress.phase is Phase.DOWNLOADING and progress.total_bytes:
            self.progress.setRange(0, 100)
            self.progress.setValue(int(100 * progress.done_bytes / progress.total_bytes))
        else:  # checking, verifying, installing, converting: no byte count to show
            self.progress.setRange(0, 0)
        self.status.setText(f"{name}: {progress.line()}")

    def _on_finished(self, name: str) -> None:
        self._on_ended(name, f"{name} is installed: pick it for live dictation or for files in the Model tab.")
        self.installed.emit(name)

    def _on_ended(self, name: str, message: str) -> None:
        """Done, failed or cancelled: the bar goes (a bar frozen at 0 % reads as still working)."""
        self.progress.setRange(0, 100)
        self.progress.hide()
        self.status.setText(message)
        self.refresh()


def fit_columns(table: QTableWidget) -> None:
    """Every column in view without scrolling sideways: the model name takes the room left, the
    short columns their text's width, and "This machine" (a long timing line) wraps into its tooltip."""
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
    header.setSectionResizeMode(_COLUMNS.index("This machine"), QHeaderView.ResizeMode.Stretch)
    table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    table.setWordWrap(False)
    table.setTextElideMode(Qt.TextElideMode.ElideRight)

"""The window on small or scaled screens (QT_SCALE_FACTOR=1.5 makes a 1280x800 screen 853x533):
it opens no larger than the screen, and the toolbar drops its button texts before any button
(Settings, at its right end) would go behind the overflow arrow."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QSettings, QSize, Qt
from PySide6.QtGui import QScreen
from PySide6.QtWidgets import QMainWindow, QToolBar

from app.private_files import private_dir, tighten

DEFAULT_SIZE = QSize(1040, 680)


def first_size(screen: QScreen | None) -> QSize:
    """The window's size on its first start: DEFAULT_SIZE, within the screen's free area."""
    if screen is None:
        return DEFAULT_SIZE
    free = screen.availableGeometry().size()
    return DEFAULT_SIZE.boundedTo(QSize(free.width() - 16, free.height() - 48))


def restore_geometry(window: QMainWindow) -> None:
    """Where and how large the window was when it last closed (QSettings), else `first_size`."""
    store = QSettings()
    geometry, state = store.value("window/geometry"), store.value("window/state")
    if geometry is not None:
        window.restoreGeometry(geometry)
    else:
        window.resize(first_size(window.screen()))
    if state is not None:
        window.restoreState(state)


def save_geometry(window: QMainWindow) -> None:
    """Remember the window's place, size and docks; the file is the user's alone."""
    store = QSettings()
    store.setValue("window/geometry", window.saveGeometry())
    store.setValue("window/state", window.saveState())
    store.sync()
    private_dir(Path(store.fileName()).parent)  # QSettings writes with the umask's modes
    tighten(store.fileName())


class ToolbarFit(QObject):
    """Texts beside the icons while they fit in the toolbar's width; icons only (texts in the
    tooltips) when not, so every button stays in view."""

    def __init__(self, toolbar: QToolBar) -> None:
        super().__init__(toolbar)
        self.toolbar = toolbar
        self._fitting = False
        toolbar.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Show, QEvent.Type.FontChange) and not self._fitting:
            self.fit()
        return False

    def fit(self) -> None:
        self._fitting = True  # the style change relays the toolbar out: no second fit from it
        try:
            self.toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            needed = self.toolbar.sizeHint().width()
            if needed > self.toolbar.width():
                self.toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        finally:
            self._fitting = False

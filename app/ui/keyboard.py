"""Keyboard use of the main window: the Tab order follows the window with Record first, and the
toolbar is part of it (Qt leaves toolbar buttons out of the Tab chain)."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolBar, QWidget

if TYPE_CHECKING:
    from app.ui.main_window import MainWindow


def _tab_stops(root: QWidget) -> list[QWidget]:
    """`root` and its descendants that Tab can reach, in creation (= layout) order."""
    candidates = [root, *root.findChildren(QWidget)]
    return [w for w in candidates if w.focusPolicy() & Qt.FocusPolicy.TabFocus and not w.focusProxy()]


def toolbar_buttons(toolbar: QToolBar) -> list[QWidget]:
    """The toolbar's buttons, left to right, made reachable with Tab."""
    buttons = []
    for action in toolbar.actions():
        widget = toolbar.widgetForAction(action)
        if widget is not None and action.text():
            widget.setFocusPolicy(Qt.FocusPolicy.TabFocus)
            buttons.append(widget)
    return buttons


def set_tab_order(window: MainWindow) -> None:
    """Record, the microphone, the transcript and file jobs, the History, then the toolbar; the
    window opens with Record focused."""
    toolbar = window.findChild(QToolBar, "mainToolbar")
    chain = [window.record_bar.button, window.record_bar.devices, window.notice.dismiss]
    for region in (window.recovery, window.splitter, window.history_panel):
        chain += [w for w in _tab_stops(region) if w not in chain]
    if toolbar is not None:
        chain += toolbar_buttons(toolbar)
    for first, second in itertools.pairwise(chain):
        QWidget.setTabOrder(first, second)
    window.record_bar.button.setFocus(Qt.FocusReason.OtherFocusReason)

"""Keyboard use of the main window: the Tab order follows the window with Record first, and the
toolbar is part of it (Qt leaves toolbar buttons out of the Tab chain)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolBar, QWidget


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


def set_tab_order(window: QWidget, leading: Sequence[QWidget], regions: Sequence[QWidget]) -> None:
    """`leading` in order (its first widget gets the focus), then each region's Tab stops, then
    the toolbar's buttons."""
    toolbar = window.findChild(QToolBar, "mainToolbar")
    chain = list(leading)
    for region in regions:
        chain += [w for w in _tab_stops(region) if w not in chain]
    if toolbar is not None:
        chain += toolbar_buttons(toolbar)
    for first, second in itertools.pairwise(chain):
        QWidget.setTabOrder(first, second)
    chain[0].setFocus(Qt.FocusReason.OtherFocusReason)

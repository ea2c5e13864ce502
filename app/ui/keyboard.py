"""Keyboard use of the main window: the Tab order follows the window with Record first, and the
toolbar is part of it (Qt leaves toolbar buttons out of the Tab chain)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from PySide6.QtCore import QEvent, QObject, Qt
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
    FocusComesBack(chain[0])


def next_tab_stop(widget: QWidget) -> QWidget | None:
    """The widget Tab goes to from `widget` (the one Qt gives the focus when `widget` is disabled)."""
    window = widget.window()
    candidate = widget.nextInFocusChain()
    while candidate is not None and candidate is not widget:
        if (
            candidate.focusPolicy() & Qt.FocusPolicy.TabFocus
            and candidate.isEnabled()
            and candidate.isVisibleTo(window)
            and not candidate.focusProxy()
        ):
            return candidate
        candidate = candidate.nextInFocusChain()
    return None


class FocusComesBack(QObject):
    """Gives `widget` the focus back once it is enabled again, when disabling it moved the focus.

    Record is disabled while the model loads, at start-up too: Qt then hands the focus on to the
    next widget in the Tab chain (the microphone list), where it stayed after loading, which left
    Record eleven Tab presses away. (Before the window is active Qt moves it without focus events:
    where the focus is right after the widget is disabled tells.) A focus the user moved
    elsewhere meanwhile is left where they put it."""

    def __init__(self, widget: QWidget) -> None:
        super().__init__(widget)
        self.widget = widget
        self.moved_to: QWidget | None = None
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.EnabledChange:
            focus = self.widget.window().focusWidget()
            if not self.widget.isEnabled():
                self.moved_to = focus if focus is not None and focus is next_tab_stop(self.widget) else None
            elif self.moved_to is not None:
                if focus is self.moved_to:
                    self.widget.setFocus(Qt.FocusReason.OtherFocusReason)
                self.moved_to = None
        return False

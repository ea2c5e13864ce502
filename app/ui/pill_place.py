"""Where the floating dictation pill goes, and how wide it may grow: on the screen, clear of
Earshot's own window where there is room, never over its status bar or record bar."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize

GAP = 48  # from the screen's bottom edge, as docks and taskbars leave it
MAX_WIDTH = 560  # a long error wraps instead of stretching across the screen


def pill_width_limit(screen: QRect, window: QRect | None) -> int:
    """The widest the pill may be: MAX_WIDTH, no wider than the screen (less margins) or the window."""
    limit = min(MAX_WIDTH, screen.width() - 2 * GAP)
    if window is not None and not window.isEmpty():
        limit = min(limit, window.width() - 2 * 16)
    return max(limit, 120)


def pill_position(size: QSize, screen: QRect, window: QRect | None, keep_clear: QRect | None) -> QPoint:
    """The top-left corner for a pill of `size`: the bottom centre of `screen`; when that covers
    `window` (Earshot's frame), below or above it where the screen leaves room; when the window
    fills the screen, just above `keep_clear` (its status bar), inside the window."""
    x = screen.center().x() - size.width() // 2
    bottom = QPoint(x, screen.bottom() - size.height() - GAP)
    if window is None or not QRect(bottom, size).intersects(window):
        return bottom
    below = QPoint(x, window.bottom() + 8)
    if below.y() + size.height() <= screen.bottom():
        return below
    above = QPoint(x, window.top() - size.height() - 8)
    if above.y() >= screen.top():
        return above
    anchor = keep_clear if keep_clear is not None and not keep_clear.isEmpty() else window
    return QPoint(window.center().x() - size.width() // 2, anchor.top() - size.height() - 12)

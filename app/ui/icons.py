"""SVG icons from resources/icons, tinted with the palette so they follow light/dark themes.

Line icons use `currentColor`; it is replaced by the colour asked for before rendering.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PySide6.QtCore import QByteArray, QRectF, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap
from PySide6.QtSvg import QSvgRenderer

from app.resource_files import RESOURCES_DIR

ICON_DIR = RESOURCES_DIR / "icons"


def icon_path(name: str) -> Path:
    return ICON_DIR / f"{name}.svg"


def icon(name: str, color: QColor | str | None = None, sizes: tuple[int, ...] = (16, 24, 32, 48)) -> QIcon:
    """`name` without `.svg`; `color` replaces `currentColor` (default: opaque black)."""
    hex_color = QColor(color).name() if color is not None else "#000000"
    return _icon(name, hex_color, sizes)


@cache
def _icon(name: str, hex_color: str, sizes: tuple[int, ...]) -> QIcon:
    svg = icon_path(name).read_text(encoding="utf-8").replace("currentColor", hex_color)
    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
    result = QIcon()
    for size in sizes:
        for ratio in (1, 2):
            pixmap = QPixmap(size * ratio, size * ratio)
            pixmap.fill(Qt.GlobalColor.transparent)
            painter = QPainter(pixmap)
            renderer.render(painter, QRectF(0, 0, size * ratio, size * ratio))
            painter.end()
            pixmap.setDevicePixelRatio(ratio)
            result.addPixmap(pixmap)
    return result

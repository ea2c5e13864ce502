"""App icons for Windows (.ico) and macOS (.icns), rendered from resources/icons/earshot.svg with QtSvg."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
from pathlib import Path


def render_png(svg: Path, size: int) -> bytes:
    """The SVG rendered into a `size` x `size` PNG with a transparent background."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    from PySide6.QtGui import QColor, QGuiApplication, QImage, QImageWriter, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication(["earshot-build"])
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(QColor(0, 0, 0, 0))
    painter = QPainter(image)
    QSvgRenderer(QByteArray(svg.read_bytes())).render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not QImageWriter(buffer, QByteArray(b"PNG")).write(image):
        raise RuntimeError(f"{svg}: could not be written as a PNG")
    return bytes(data.data())


def write_ico(svg: Path, target: Path, sizes: tuple[int, ...] = (16, 24, 32, 48, 64, 128, 256)) -> Path:
    """A Windows .ico whose entries are PNGs (supported since Windows Vista)."""
    pngs = [render_png(svg, size) for size in sizes]
    header = struct.pack("<HHH", 0, 1, len(pngs))
    offset = len(header) + 16 * len(pngs)
    entries = b""
    for size, png in zip(sizes, pngs, strict=True):
        dim = 0 if size >= 256 else size  # 0 means 256 in the ICO directory
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(png), offset)
        offset += len(png)
    target.write_bytes(header + entries + b"".join(pngs))
    return target


def write_icns(svg: Path, target: Path) -> Path:
    """A macOS .icns through `iconutil` (part of macOS) from an .iconset folder."""
    iconset = target.with_suffix(".iconset")
    shutil.rmtree(iconset, ignore_errors=True)
    iconset.mkdir(parents=True)
    for size in (16, 32, 128, 256, 512):
        (iconset / f"icon_{size}x{size}.png").write_bytes(render_png(svg, size))
        (iconset / f"icon_{size}x{size}@2x.png").write_bytes(render_png(svg, size * 2))
    subprocess.run(["iconutil", "-c", "icns", str(iconset), "-o", str(target)], check=True)
    shutil.rmtree(iconset)
    return target

"""A small style sheet built from the current palette, so light and dark themes both look
right; rebuilt whenever the system palette changes."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

ACCENT = "#5b6cff"
RECORDING = "#e5484d"
ERROR = "#e5484d"
LOUD = "#d18a00"  # the level meter's orange, a little darker so it reads as text


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def _mix(a: QColor, b: QColor, t: float) -> str:
    return QColor(
        round(a.red() * (1 - t) + b.red() * t),
        round(a.green() * (1 - t) + b.green() * t),
        round(a.blue() * (1 - t) + b.blue() * t),
    ).name()


def style_sheet(palette: QPalette) -> str:
    window = palette.color(QPalette.ColorRole.Window)
    text = palette.color(QPalette.ColorRole.WindowText)
    base = palette.color(QPalette.ColorRole.Base)
    muted = _mix(text, window, 0.45)
    card = _mix(base, text, 0.04)
    border = _mix(window, text, 0.14)
    return f"""
    QPushButton#recordButton {{
        background: {ACCENT}; color: white; border: none; border-radius: 22px;
        padding: 0 22px; font-size: 15px; font-weight: 600;
    }}
    QPushButton#recordButton:hover {{ background: {_mix(QColor(ACCENT), QColor("white"), 0.12)}; }}
    QPushButton#recordButton:focus {{ border: 3px solid {_mix(QColor(ACCENT), window, 0.55)}; }}
    QPushButton#recordButton[recording="true"] {{ background: {RECORDING}; }}
    QPushButton#recordButton:disabled {{ background: {muted}; }}
    QLabel#stateTitle {{ font-size: 15px; font-weight: 600; }}
    QLabel#stateTitle[error="true"] {{ color: {ERROR}; }}
    QLabel#stateDetail, QLabel#muted {{ color: {muted}; }}
    QLabel#fieldError {{ color: {ERROR}; }}
    QLabel#loudWarning {{ color: {LOUD}; font-weight: 600; }}
    QLabel#sectionTitle {{ font-size: 13px; font-weight: 600; }}
    QLabel#jobName {{ font-weight: 600; }}
    QLabel#jobStatus {{ color: {muted}; }}
    QLabel#jobStatus[error="true"] {{ color: {ERROR}; }}
    QFrame#jobRow {{ background: {card}; border: 1px solid {border}; border-radius: 8px; }}
    QWidget#recordBar {{ border-bottom: 1px solid {border}; }}
    QTextEdit#transcript {{ background: {base.name()}; border: none; }}
    QProgressBar {{ background: {border}; border: none; border-radius: 3px; }}
    QProgressBar::chunk {{ background: {ACCENT}; border-radius: 3px; }}
    QStatusBar QLabel {{ color: {muted}; padding: 0 8px; }}
    QListWidget {{ border: 1px solid {border}; border-radius: 6px; }}
    QListWidget::item {{ padding: 6px 4px; border-bottom: 1px solid {border}; }}
    QListWidget::item:selected {{ background: {_mix(base, QColor(ACCENT), 0.25)}; color: {text.name()}; }}
    """


def apply_theme(app: QApplication) -> None:
    """Style the app for its palette; a no-op when nothing changed (no restyle loop)."""
    sheet = style_sheet(app.palette())
    if app.styleSheet() != sheet:
        app.setStyleSheet(sheet)

"""A small style sheet built from the current palette, so light and dark themes both look
right; rebuilt whenever the system palette changes."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

ACCENT = "#5b6cff"
RECORDING = "#e5484d"
ERROR = "#e5484d"
LOUD = "#d18a00"  # the level meter's orange, a little darker so it reads as text


def _mix(a: QColor, b: QColor, t: float) -> str:
    return QColor(
        round(a.red() * (1 - t) + b.red() * t),
        round(a.green() * (1 - t) + b.green() * t),
        round(a.blue() * (1 - t) + b.blue() * t),
    ).name()


def focus_color(palette: QPalette) -> str:
    """The keyboard focus ring: the text colour tinted with the accent, so that it stands out
    (3:1 or more) against the window in light and dark themes alike. (Record's ring is the plain
    text colour: the tint would be too close to its accent fill.)"""
    return _mix(palette.color(QPalette.ColorRole.WindowText), QColor(ACCENT), 0.3)


def style_sheet(palette: QPalette) -> str:
    window = palette.color(QPalette.ColorRole.Window)
    text = palette.color(QPalette.ColorRole.WindowText)
    base = palette.color(QPalette.ColorRole.Base)
    muted = _mix(text, window, 0.45)
    card = _mix(base, text, 0.04)
    border = _mix(window, text, 0.14)
    focus = focus_color(palette)
    return f"""
    QToolButton:focus, QComboBox:focus {{ border: 2px solid {focus}; border-radius: 4px; }}
    QPushButton#recordButton {{
        background: {ACCENT}; color: white; border: none; border-radius: 22px;
        padding: 0 22px; font-size: 15px; font-weight: 600;
    }}
    QPushButton#recordButton:hover {{ background: {_mix(QColor(ACCENT), QColor("white"), 0.12)}; }}
    QPushButton#recordButton:focus {{ border: 3px solid {text.name()}; }}
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


DARK_COLOURS = {
    QPalette.ColorRole.Window: "#1f2023",
    QPalette.ColorRole.WindowText: "#e8e8ea",
    QPalette.ColorRole.Base: "#17181a",
    QPalette.ColorRole.AlternateBase: "#232427",
    QPalette.ColorRole.Text: "#e8e8ea",
    QPalette.ColorRole.Button: "#2a2b2f",
    QPalette.ColorRole.ButtonText: "#e8e8ea",
    QPalette.ColorRole.ToolTipBase: "#2a2b2f",
    QPalette.ColorRole.ToolTipText: "#e8e8ea",
    QPalette.ColorRole.PlaceholderText: "#8a8f98",
    QPalette.ColorRole.Highlight: ACCENT,
    QPalette.ColorRole.HighlightedText: "#ffffff",
    QPalette.ColorRole.Light: "#3a3b40",
    QPalette.ColorRole.Midlight: "#303136",
    QPalette.ColorRole.Mid: "#55575c",
    QPalette.ColorRole.Dark: "#111214",
    QPalette.ColorRole.Shadow: "#000000",
    QPalette.ColorRole.Link: "#8b98ff",
}


def dark_palette() -> QPalette:
    palette = QPalette()
    for role, colour in DARK_COLOURS.items():
        palette.setColor(role, QColor(colour))
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor("#6b6e73"))
    return palette


def use_theme(app: QApplication, choice: str) -> None:
    """Colour the app for a `WindowSettings.theme` choice: "light", "dark", or "system" (the
    palette the desktop gave the app before Earshot first chose one)."""
    started_with = app.property("earshotSystemPalette")
    if choice == "system":
        if isinstance(started_with, QPalette):
            app.setPalette(started_with)
    else:
        if not isinstance(started_with, QPalette):
            app.setProperty("earshotSystemPalette", QPalette(app.palette()))
        app.setPalette(dark_palette() if choice == "dark" else app.style().standardPalette())
    apply_theme(app)


def follow_theme_setting(controller: object) -> None:
    """Use the controller's theme setting now and whenever the settings change."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return
    use_theme(app, controller.settings.window.theme)  # type: ignore[attr-defined]
    controller.settings_changed.connect(  # type: ignore[attr-defined]
        lambda settings: use_theme(app, settings.window.theme)
    )

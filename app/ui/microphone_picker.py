"""The microphone menu: the system default first, then each microphone by its full name, and the
chosen one kept (marked "not connected") while it is unplugged, so plugging it back picks it again.
Long names are shortened with "…" in the closed menu only while the window has no room for them
(the menu takes up to WIDEST_SHARE of the window's width); the tooltip and the open list show them whole.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QGuiApplication, QPaintEvent
from PySide6.QtWidgets import QComboBox, QSizePolicy, QStyle, QStyleOptionComboBox, QStylePainter, QWidget

from app.controller.ports import Microphone

DEFAULT_ALIASES = frozenset({"pulse", "pipewire", "default", "sysdefault"})
"""PortAudio's names for the default input, which settings written before the microphones had
their own names hold: they mean the system default."""
NOT_CONNECTED = "(not connected)"
SHOWN_CHARACTERS = 26
"""Characters the closed menu always makes room for."""
WIDEST_SHARE = 0.3
"""The most of the window's width the closed menu asks for, to show a long name whole: the record
button and the state keep the rest."""


def chosen_microphone(stored: str | None) -> str | None:
    """The stored choice as the menu's value (None = the system default)."""
    return None if stored in DEFAULT_ALIASES else stored


def device_choices(devices: Sequence[Microphone], chosen: str | None = None) -> list[tuple[str, str | None]]:
    """(menu text, stored value): the system default (None) naming the device it is now, each
    microphone, and the chosen one when it is not connected."""
    default = next((d.name for d in devices if d.is_default), "")
    choices: list[tuple[str, str | None]] = [
        (f"System default ({default})" if default else "System default microphone", None)
    ]
    choices += [(d.name, d.name) for d in devices]
    chosen = chosen_microphone(chosen)
    if chosen and all(d.name != chosen for d in devices):
        choices.append((f"{chosen} {NOT_CONNECTED}", chosen))
    return choices


class MicrophoneCombo(QComboBox):
    """A combo box that shortens the current name with "…" to its width, shows it whole in its
    tooltip, and opens a list wide enough for the longest name (up to the screen's width)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Input device")
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(SHOWN_CHARACTERS)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.currentIndexChanged.connect(self._show_whole_name)

    def set_devices(self, devices: Sequence[Microphone], chosen: str | None) -> None:
        """List `devices` and select `chosen` (None = the system default)."""
        self.blockSignals(True)
        self.clear()
        for label, value in device_choices(devices, chosen):
            self.addItem(label, value)
            self.setItemData(self.count() - 1, label, Qt.ItemDataRole.ToolTipRole)
        self.setCurrentIndex(max(0, self.findData(chosen_microphone(chosen))))
        self.blockSignals(False)
        self._show_whole_name()

    def sizeHint(self) -> QSize:
        """Wide enough for the whole current name, up to WIDEST_SHARE of the window's width (the
        layout gives less, down to SHOWN_CHARACTERS, when the window is narrow)."""
        hint = super().sizeHint()
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        field = self.style().subControlRect(
            QStyle.ComplexControl.CC_ComboBox, option, QStyle.SubControl.SC_ComboBoxEditField, self
        )
        chrome = self.width() - field.width()
        whole = self.fontMetrics().horizontalAdvance(self.currentText()) + chrome + 2
        widest = int(self.window().width() * WIDEST_SHARE) if self.window() is not self else whole
        return QSize(max(hint.width(), min(whole, widest)), hint.height())

    def shown_text(self) -> str:
        """The current name as the closed menu draws it: whole, or cut with "…" to fit."""
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        field = self.style().subControlRect(
            QStyle.ComplexControl.CC_ComboBox, option, QStyle.SubControl.SC_ComboBoxEditField, self
        )
        return self.fontMetrics().elidedText(self.currentText(), Qt.TextElideMode.ElideRight, field.width())

    def popup_width(self) -> int:
        """Wide enough for the longest name, never narrower than the box nor wider than the screen."""
        longest = max((self.fontMetrics().horizontalAdvance(self.itemText(i)) for i in range(self.count())), default=0)
        screen = (self.screen() or QGuiApplication.primaryScreen()).availableGeometry().width()
        scroll = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        return min(screen, max(self.width(), longest + scroll + 4 * self.fontMetrics().averageCharWidth()))

    def showPopup(self) -> None:
        self.view().setMinimumWidth(self.popup_width())
        super().showPopup()

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QStylePainter(self)
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        option.currentText = self.shown_text()
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, option)
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, option)

    def _show_whole_name(self) -> None:
        name = self.currentText()
        self.setToolTip(
            f"Microphone used for dictation: {name}"
            if name
            else "No microphone found — connect one and it appears here"
        )
        self.setAccessibleDescription(name)
        self.updateGeometry()  # a longer or shorter name asks for another width

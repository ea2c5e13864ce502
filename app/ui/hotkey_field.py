"""The global hotkey field of the settings dialog: typed or recorded ("Press keys…"), checked as
it changes, with what is wrong shown right under it."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from app.desktop.hotkeys.chord import chord_problem

_MODIFIER_NAMES = (
    (Qt.KeyboardModifier.ControlModifier, "ctrl"),
    (Qt.KeyboardModifier.AltModifier, "alt"),
    (Qt.KeyboardModifier.ShiftModifier, "shift"),
    (Qt.KeyboardModifier.MetaModifier, "super"),
)
_ONLY_MODIFIERS = {
    Qt.Key.Key_Control,
    Qt.Key.Key_Alt,
    Qt.Key.Key_Shift,
    Qt.Key.Key_Meta,
    Qt.Key.Key_Super_L,
    Qt.Key.Key_Super_R,
    Qt.Key.Key_AltGr,
}
_KEY_NAMES = {
    Qt.Key.Key_Space: "space",
    Qt.Key.Key_Return: "return",
    Qt.Key.Key_Enter: "return",
    Qt.Key.Key_Insert: "insert",
    Qt.Key.Key_Delete: "delete",
    Qt.Key.Key_Home: "home",
    Qt.Key.Key_End: "end",
    Qt.Key.Key_PageUp: "page_up",
    Qt.Key.Key_PageDown: "page_down",
    Qt.Key.Key_Pause: "pause",
    Qt.Key.Key_ScrollLock: "scroll_lock",
    Qt.Key.Key_Print: "print",
    Qt.Key.Key_Up: "up",
    Qt.Key.Key_Down: "down",
    Qt.Key.Key_Left: "left",
    Qt.Key.Key_Right: "right",
    Qt.Key.Key_Backspace: "backspace",
    Qt.Key.Key_Menu: "menu",
}


def chord_from_key_event(event: QKeyEvent) -> str | None:
    """ "ctrl+alt+d" for the keys of `event`; None for a lone modifier (the chord is not done)."""
    key = Qt.Key(event.key())
    if key in _ONLY_MODIFIERS:
        return None
    if key in _KEY_NAMES:
        name = _KEY_NAMES[key]
    elif Qt.Key.Key_F1.value <= key.value <= Qt.Key.Key_F24.value:
        name = f"f{key.value - Qt.Key.Key_F1.value + 1}"
    else:
        name = QKeySequence(key.value).toString().lower()
    if not name:
        return None
    modifiers = event.modifiers()
    return "+".join([text for flag, text in _MODIFIER_NAMES if modifiers & flag] + [name])


class HotkeyField(QWidget):
    """`edit` holds the chord; `problem()` says what is wrong with it (shown in `error`)."""

    changed = Signal()

    def __init__(self, chord: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.edit = QLineEdit(chord, self)
        self.edit.setAccessibleName("Global hotkey")
        self.edit.setPlaceholderText("e.g. ctrl+alt+space; empty = none")
        self.edit.installEventFilter(self)
        self.record_button = QPushButton("Press keys…", self)
        self.record_button.setAccessibleName("Record the hotkey")
        self.record_button.setToolTip("Then press the keys you want, e.g. Ctrl+Alt+Space (Esc cancels)")
        self.record_button.clicked.connect(self.start_recording)
        self.error = QLabel(self)
        self.error.setObjectName("fieldError")
        self.error.setAccessibleName("Hotkey problem")
        self.error.setWordWrap(True)
        self.error.hide()
        self.recording = False
        self.edit.textChanged.connect(self._on_text)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.edit, 1)
        row.addWidget(self.record_button)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addLayout(row)
        column.addWidget(self.error)

    def chord(self) -> str:
        return self.edit.text().strip()

    def problem(self) -> str | None:
        """The user-facing problem with the chord as typed, or None."""
        return chord_problem(self.chord())

    def show_problem(self) -> bool:
        """Show (or clear) the problem under the field; True when there is one."""
        problem = self.problem()
        self.error.setText(f"Not a usable hotkey: {problem}." if problem else "")
        self.error.setVisible(problem is not None)
        return problem is not None

    def start_recording(self) -> None:
        self.recording = True
        self._before = self.edit.text()
        self.edit.clear()
        self.edit.setPlaceholderText("Press the keys now (Esc cancels)")
        self.record_button.setText("Listening…")
        self.edit.setFocus(Qt.FocusReason.OtherFocusReason)

    def _stop_recording(self, chord: str) -> None:
        self.recording = False
        self.edit.setText(chord)
        self.edit.setPlaceholderText("e.g. ctrl+alt+space; empty = none")
        self.record_button.setText("Press keys…")

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.edit and self.recording and isinstance(event, QKeyEvent):
            if event.type() == QEvent.Type.KeyPress:
                if event.key() == Qt.Key.Key_Escape:
                    self._stop_recording(self._before)
                else:
                    chord = chord_from_key_event(event)
                    if chord is not None:
                        self._stop_recording(chord)
            return True  # while recording, keys make the chord: they are not typed
        if watched is self.edit and self.recording and event.type() == QEvent.Type.FocusOut:
            self._stop_recording(self._before)
        return super().eventFilter(watched, event)

    def _on_text(self) -> None:
        if self.error.isVisible() or self.problem() is None:
            self.show_problem()  # a shown problem follows the typing; a new one waits for Apply
        self.changed.emit()

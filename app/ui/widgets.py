"""Small shared widgets: a dismissible notice bar and a read-only transcript viewer."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)


class NoticeBar(QFrame):
    """A one-line message above the transcript (e.g. "settings were reset"), with Dismiss."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("noticeBar")
        self.setAccessibleName("Notice")
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.dismiss = QPushButton("Dismiss", self)
        self.dismiss.setAccessibleName("Dismiss notice")
        self.dismiss.clicked.connect(self.hide)
        row = QHBoxLayout(self)
        row.setContentsMargins(18, 8, 12, 8)
        row.addWidget(self.label, 1)
        row.addWidget(self.dismiss)
        self.hide()

    def show_message(self, text: str) -> None:
        self.label.setText(text)
        self.show()


class TextViewer(QDialog):
    """Shows one transcript read-only, with Copy."""

    def __init__(self, title: str, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setAccessibleName(f"Transcript {title}")
        self.resize(640, 480)
        self.text = QPlainTextEdit(text, self)
        self.text.setReadOnly(True)
        self.text.setAccessibleName("Transcript text")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        copy = buttons.addButton("Copy", QDialogButtonBox.ButtonRole.ActionRole)
        copy.setAccessibleName("Copy transcript")
        copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(text))
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(buttons)

"""Small shared widgets: a dismissible notice bar."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
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

"""A stand-in for "any other app": a Qt window with one line edit, in its own process.

Usage: python receiver_window.py TITLE OUT_FILE. Every change of the text is written to OUT_FILE
(UTF-8), so a test can see what arrived.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtWidgets import QApplication, QLineEdit


def main() -> int:
    title, out = sys.argv[1], Path(sys.argv[2])
    app = QApplication(sys.argv[:1])
    edit = QLineEdit()
    edit.setWindowTitle(title)
    edit.resize(700, 40)
    edit.textChanged.connect(lambda text: out.write_text(text, encoding="utf-8"))
    out.write_text("", encoding="utf-8")
    edit.show()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())

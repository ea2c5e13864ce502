"""Helpers shared by the GUI tests (opening the window, waiting for the model, test clips)."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtGui import QColor

from app.controller.app_controller import AppController, AppParts
from app.controller.states import ModelState
from app.ui.main_window import MainWindow

DATA = Path(__file__).resolve().parents[1] / "data"
CLIPS = {c["file"]: c for c in json.loads((DATA / "clips.json").read_text())["clips"]}
MODEL_LOAD_TIMEOUT_MS = 300_000  # the first run converts tiny.en once (cached afterwards)
def open_window(qtbot: object, parts: AppParts, load: bool = True) -> MainWindow:
    """The window as `earshot` shows it; with `load`, the model loads in the background."""
    controller = AppController(parts)
    window = MainWindow(controller, tray=None)
    # pytest-qt closes the window after the test: a file job still running must not leave the
    # "Quit anyway?" question open forever (tests about that question set their own answer).
    window.confirm_quit_jobs = lambda _parent, _running: True
    qtbot.addWidget(window)  # type: ignore[attr-defined]
    window.resize(1100, 720)
    window.show()
    qtbot.waitExposed(window)  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: window.microphones.listed)  # type: ignore[attr-defined]  # after the first frame
    if load:
        controller.start()
    return window


def wait_model_ready(qtbot: object, window: MainWindow) -> None:
    models = window.controller.models
    qtbot.waitUntil(  # type: ignore[attr-defined]
        lambda: models.state in (ModelState.READY, ModelState.FAILED), timeout=MODEL_LOAD_TIMEOUT_MS
    )
    assert models.state == ModelState.READY, window.record_bar.detail.text()


def normalized(text: str) -> str:
    return " ".join("".join(ch for ch in text.lower() if ch.isalnum() or ch.isspace()).split())


def contrast(a: QColor, b: QColor) -> float:
    """WCAG's contrast ratio of two colours (1 = none, 21 = black on white; text wants 4.5, icons 3)."""
    def luminance(colour: QColor) -> float:
        def linear(value: int) -> float:
            v = value / 255
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
        return 0.2126 * linear(colour.red()) + 0.7152 * linear(colour.green()) + 0.0722 * linear(colour.blue())

    low, high = sorted((luminance(a), luminance(b)))
    return (high + 0.05) / (low + 0.05)

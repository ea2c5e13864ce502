"""Choices of the settings dialog that need more than a list: the accuracy/speed choice for
files (a beam size underneath), the precisions with what they cost, and import errors that name
the folder the user chose; `select_data` selects a choice by its data, for every page."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QStyle,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.engine.types import Precision
from app.settings.schema import DEFAULT_VOCABULARY_BOOST, MAX_VOCABULARY_BOOST, PRECISIONS
from app.ui.labels import PRECISION_LABELS, PRECISION_NOTES, PRECISION_TIPS

FILE_ACCURACY = (
    (5, "More accurate (slower)"),
    (1, "Faster"),
)
FILE_ACCURACY_TIPS = {
    # bench/compare.py, tiny.en, the 10 English shared clips (docs/performance.md): beam 5 against greedy
    5: "Weighs 5 candidate wordings: 4.5 % of words wrong instead of 5.6 %, about 30 % more time",
    1: "Takes the likeliest word each time: about a quarter less time, a few more words wrong",
}


def file_accuracy_combo(beam_size: int, parent: QWidget) -> QComboBox:
    """The accuracy/speed choice for files; its data is the beam size (1..16). A hand-set beam
    size other than the two choices stays, as "Custom"."""
    combo = QComboBox(parent)
    combo.setAccessibleName("Accuracy for files")
    for beam, label in FILE_ACCURACY:
        combo.addItem(label, beam)
        combo.setItemData(combo.count() - 1, FILE_ACCURACY_TIPS[beam], Qt.ItemDataRole.ToolTipRole)
    if combo.findData(beam_size) < 0:
        combo.addItem(f"Custom (weighs {beam_size} candidate wordings)", beam_size)
    combo.setCurrentIndex(combo.findData(beam_size))
    combo.setToolTip("Live dictation always uses the fast setting")
    return combo


def vocabulary_boost_box(boost: float, parent: QWidget) -> QDoubleSpinBox:
    """How strongly the decoder favours the vocabulary (logits added to its words' tokens)."""
    box = QDoubleSpinBox(parent)
    box.setAccessibleName("Favour these words")
    box.setRange(0.0, MAX_VOCABULARY_BOOST)
    box.setSingleStep(0.5)
    box.setDecimals(1)
    box.setValue(boost)
    box.setSpecialValueText("Off")  # 0: the words are not favoured
    box.setToolTip(
        f"{DEFAULT_VOCABULARY_BOOST:g} (the default) about doubles how often listed names are written "
        "right without writing them where they were not said; higher finds more of them but "
        "may write one where a similar word was said"
    )
    return box


def runs_on_cpu(provider: str | None, available: list[str]) -> bool:
    """True when `provider` (None = the best available) means the CPU."""
    chosen = provider or next((p for p in available if p != "cpu"), "cpu")
    return chosen == "cpu"


def fill_precisions(combo: QComboBox, support: Mapping[Precision, str | None], on_cpu: bool, current: str) -> None:
    """The precisions that run here, each with what it costs; fp16 is left out on a CPU, where
    onnxruntime emulates it (slower than fp32), unless it is the saved choice."""
    combo.clear()
    model = combo.model()
    assert isinstance(model, QStandardItemModel)
    for value in PRECISIONS:
        if value == "fp16" and on_cpu and current != "fp16":
            continue
        combo.addItem(PRECISION_LABELS[value], value)
        reason = support.get(Precision(value))
        item = model.item(combo.count() - 1)
        item.setEnabled(reason is None)
        item.setToolTip(f"Not available: {reason}" if reason else PRECISION_TIPS[value])
    index = combo.findData(current)
    enabled = index >= 0 and model.item(index).isEnabled()
    combo.setCurrentIndex(index if enabled else 0)


def import_error_text(error: str, folder: Path) -> str:
    """`error` with the importer's private copy (models/.NAME-1a2b3c) named as the user's folder,
    which the message always names."""
    copy = re.compile(r"\S*/\." + re.escape(folder.name) + r"-[A-Za-z0-9_]+")
    text = copy.sub(str(folder), error)
    return f"Import failed: {text}" if str(folder) in text else f"Import failed: {folder}: {text}"


THEME_CHOICES = (("system", "Like the desktop"), ("light", "Light"), ("dark", "Dark"))


def theme_combo(current: str, parent: QWidget) -> QComboBox:
    """The window's colours (`WindowSettings.theme`)."""
    combo = QComboBox(parent)
    combo.setAccessibleName("Theme")
    for value, label in THEME_CHOICES:
        combo.addItem(label, value)
    combo.setCurrentIndex(max(0, combo.findData(current)))
    return combo


def seconds_box(parent: QWidget, name: str, low: float, high: float, value: float, tip: str) -> QDoubleSpinBox:
    """A duration in seconds, shown with two decimals as stored (a hand-edited 0.25 must not
    turn into 0.3 on OK)."""
    box = QDoubleSpinBox(parent)
    box.setAccessibleName(name)
    box.setRange(low, high)
    box.setSingleStep(0.1)
    box.setDecimals(2)
    box.setSuffix(" s")
    box.setValue(value)
    box.setToolTip(tip)
    return box


def check_box(parent: QWidget, text: str, name: str, tip: str, checked: bool) -> QCheckBox:
    """A labelled on/off setting with its accessible name and tooltip."""
    box = QCheckBox(text, parent)
    box.setAccessibleName(name)
    box.setToolTip(tip)
    box.setChecked(checked)
    return box


def precision_note(combo: QComboBox, parent: QWidget) -> QLabel:
    """One plain line under the precision menu: what the chosen precision costs here (the figures
    are in its tooltip)."""
    note = QLabel(parent)
    note.setObjectName("muted")
    note.setAccessibleName("What this precision costs")
    note.setWordWrap(True)

    def show() -> None:
        chosen = str(combo.currentData())
        note.setText(PRECISION_NOTES.get(chosen, ""))
        note.setToolTip(PRECISION_TIPS.get(chosen, ""))  # the figures behind the plain words

    combo.currentIndexChanged.connect(lambda _i: show())
    show()
    return note


def show_every_tab(tabs: QTabWidget) -> None:
    """Every tab's whole name in view: no scroll arrows, no "Down…"; the widget asks for the
    width that takes (its minimum size, so the dialog opens that wide at any font size)."""
    bar = tabs.tabBar()
    tabs.setUsesScrollButtons(False)
    bar.setElideMode(Qt.TextElideMode.ElideNone)
    bar.setExpanding(False)
    tabs.setMinimumWidth(bar.sizeHint().width() + 2 * tabs.style().pixelMetric(QStyle.PixelMetric.PM_DefaultFrameWidth))


def select_data(combo: QComboBox, value: object) -> None:
    """Select the item whose data is `value` (the first item when none is)."""
    index = combo.findData(value)
    combo.setCurrentIndex(max(0, index))


def form_page(page: QWidget, rows: list[tuple[str, QWidget]]) -> None:
    """Lay `page` out as a settings tab: one form of (label, field) rows at the top."""
    form = QFormLayout()
    for label, field in rows:
        form.addRow(label, field)
    layout = QVBoxLayout(page)
    layout.addLayout(form)
    layout.addStretch(1)

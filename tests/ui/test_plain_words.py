"""Words a user reads instead of jargon: precisions are plain choices (Best quality / Balanced /
Smallest) with the figures in tooltips, and the status bar says how far the live text lags
behind the voice in seconds, not "Last commit 28945 ms"."""

from __future__ import annotations

import re

from gui_helpers import open_window, wait_model_ready

from app.controller.app_controller import AppController
from app.ui.settings_dialog import SettingsDialog

JARGON = re.compile(r"fp32|fp16|int8|int4|\bbit\b|4-bit|vocabulary table|test clips|\d")


def test_precisions_are_plain_choices_with_the_figures_in_tooltips(qtbot, parts) -> None:
    dialog = SettingsDialog(AppController(parts))
    qtbot.addWidget(dialog)
    dialog.show()
    combo = dialog.precision
    labels = {combo.itemData(i): combo.itemText(i) for i in range(combo.count())}
    assert labels["fp32"] == "Best quality" and labels["int8"] == "Balanced" and labels["int4"] == "Smallest"
    assert all(not JARGON.search(text) for text in labels.values()), labels
    notes = [w for w in dialog.findChildren(type(dialog.message)) if w.accessibleName() == "What this precision costs"]
    assert len(notes) == 1
    for value in ("int8", "int8-small", "fp32", "auto"):
        combo.setCurrentIndex(combo.findData(value))
        assert notes[0].text() and not JARGON.search(notes[0].text()), notes[0].text()
        assert re.search(r"\d", notes[0].toolTip()), notes[0].toolTip()  # the figures are one hover away
    tip = combo.model().item(combo.findData("int8")).toolTip()
    assert "%" in tip


def test_the_status_bar_says_quality_and_delay_in_plain_words(qtbot, parts) -> None:
    window = open_window(qtbot, parts)
    wait_model_ready(qtbot, window)
    precision = window.controller.models.description.precision
    label = window.status_line.precision_label
    assert label.text().startswith("Quality: ") and not JARGON.search(label.text()), label.text()
    assert label.toolTip().startswith(precision)
    window.controller.dictation.commit_latency.emit(412.0)  # what the live session reports per commit
    assert window.status_line.latency_label.text() == "Delay 0.4 s"
    window.controller.dictation.commit_latency.emit(28945.0)
    assert window.status_line.latency_label.text().startswith("Delay 29 s (slow")
    assert "28945 ms" in window.status_line.latency_label.toolTip()
    assert "commit" not in window.status_line.latency_label.text().lower()

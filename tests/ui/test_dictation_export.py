"""An unedited dictation exports as SRT and VTT from the History: its subtitle cues are its
utterances, each beginning with its own first word (never with the last one's full stop).

Real window, real worker and tiny.en; a two-sentence espeak clip replayed as the microphone."""

from __future__ import annotations

from pathlib import Path

from gui_helpers import CLIPS, DATA, normalized, open_window, wait_model_ready
from test_dictation_text import wait_idle
from test_dictation_window import dictate

MORNING = DATA / "espeak_morning.wav"  # "Good morning everyone. Today we will review the budget ..."


def test_an_unedited_dictation_exports_as_srt_and_vtt(qtbot, parts, tmp_path: Path) -> None:
    window = open_window(qtbot, parts)
    wait_model_ready(qtbot, window)
    dictate(qtbot, window, MORNING)
    wait_idle(qtbot, window)
    panel = window.history_panel
    panel.refresh()
    panel.list.setCurrentRow(0)
    menu = {a.text(): a for a in panel.entry_menu().actions()}

    assert menu["Export as SRT…"].isEnabled(), menu["Export as SRT…"].toolTip()
    assert menu["Export as VTT…"].isEnabled()
    panel.ask_export_path = lambda _parent, name, fmt: tmp_path / name
    srt = panel.export_selected("srt")
    assert srt is not None
    cues = [block.splitlines() for block in srt.read_text(encoding="utf-8").strip().split("\n\n")]
    texts = [" ".join(lines[2:]) for lines in cues]
    assert all(lines[1].count(" --> ") == 1 for lines in cues), cues
    assert all(text[:1].isalnum() for text in texts), texts  # no cue begins ". Today"
    assert normalized(" ".join(texts)) == normalized(CLIPS["espeak_morning.wav"]["text"])
    vtt = panel.export_selected("vtt")
    assert vtt is not None and vtt.read_text(encoding="utf-8").startswith("WEBVTT")

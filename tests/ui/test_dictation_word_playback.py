"""Issue 32, item 20: clicking a word of a dictation in the review view plays it from that word,
not from the start of its sentence. The live session's word times reach the History as the words
are committed (entries.words) and the review view plays from the clicked word's own start, also
after the user edits the segment.

Real engine (tiny.en) dictating a replayed clip whose word times are known (espeak_words.json),
real widgets, real playback into a private PulseAudio null sink (see test_review_view.py).
"""

from __future__ import annotations

import copy
import shutil

import pytest
from gui_helpers import DATA, open_window, wait_model_ready
from PySide6.QtCore import Qt
from test_dictation_text import wait_idle
from test_dictation_window import dictate
from test_review_view import RATE, WORDS, click_word, null_sink

WORD = "Friday"  # mid-sentence: "... to Maria before Friday and call ..."
__all__ = ["null_sink"]  # the fixture, used by name

pytestmark = pytest.mark.skipif(shutil.which("pulseaudio") is None or shutil.which("pactl") is None,
                                reason="pulseaudio / pulseaudio-utils are not installed")


def test_a_clicked_word_of_a_dictation_plays_from_that_word(qtbot, parts, null_sink) -> None:
    window = open_window(qtbot, parts)
    wait_model_ready(qtbot, window)
    controller = window.controller
    settings = copy.deepcopy(controller.settings)
    settings.dictation.keep_audio = True  # as ticked in Settings (test_review_view does it there)
    controller.apply_settings(settings)
    dictate(qtbot, window, DATA / "espeak_words.wav")
    wait_idle(qtbot, window)
    [entry] = controller.history.search()
    assert WORD in entry.text and entry.timed
    [spoken] = [w for w in entry.words if w.text.strip(".,") == WORD]  # stored as it was committed
    truth = next(w for w in WORDS if w["word"] == WORD)["start"]
    assert abs(spoken.start - truth) <= 0.3, (spoken.start, truth)

    panel = window.history_panel
    panel.refresh()
    panel.list.setCurrentRow(0)
    panel.open_selected()
    view = panel.editor
    assert view is not None and view.play_button.isEnabled()
    texts = view.text.segment_texts()
    segment = next(i for i, t in enumerate(texts) if WORD in t)
    piece = [p for p in entry.pieces if p.text.strip()][segment]
    assert spoken.start - piece.start > 1.0  # mid-sentence: its sentence starts well before it
    click_word(qtbot, view, segment, WORD)
    player = controller.playback.player
    assert player.start_sample == round(spoken.start * RATE), (player.start_sample / RATE, spoken.start)
    qtbot.waitUntil(lambda: player.position > player.start_sample, timeout=5000)  # it plays
    view.stop_button.click()

    editor = view.text  # an edit of the segment keeps the words' times
    cursor = editor.textCursor()
    cursor.setPosition(editor.position_of(segment, texts[segment].index(WORD)))
    editor.setTextCursor(cursor)
    qtbot.keyClicks(editor, "Dear ")
    view.save_button.click()
    view.close()
    edited = controller.history.get(entry.id)
    assert edited is not None and f"Dear {WORD}" in edited.text and edited.words == entry.words
    panel.refresh()
    panel.list.setCurrentRow(0)
    panel.open_selected()
    view = panel.editor
    assert view is not None
    click_word(qtbot, view, segment, WORD)
    assert controller.playback.player.start_sample == round(spoken.start * RATE)
    qtbot.mouseClick(view.text.viewport(), Qt.MouseButton.LeftButton)  # nothing else breaks on a click
    view.close()

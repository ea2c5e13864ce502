"""Watch folders write transcript files: the formats and the output folder chosen per watched
folder in Settings > Watch folders, mirroring the file's place in the watch folder; a folder the
transcript cannot be written to is one line in the window and the log, and the History keeps the
text. Real engine (tiny.en), real files and folders; only the folder dialogs are answered (a modal
dialog cannot be clicked offscreen) and the poll is made short through `AppParts.watch`."""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from gui_helpers import CLIPS, DATA, normalized, open_window

from app.controller.watched_files import WatchOptions
from app.history.entry import EntryKind
from app.settings.schema import WatchFolder
from app.settings.store import SettingsStore
from app.ui.settings_dialog import SettingsDialog

WEATHER = normalized(CLIPS["espeak_weather.wav"]["text"])
FAST = WatchOptions(poll_ms=100, settle_s=0.3)


def cue_lines(subtitles: str) -> list[str]:
    """The text lines of an SRT or VTT document (no numbers, times, header or blank lines)."""
    return [line for line in subtitles.splitlines()
            if line.strip() and not line.isdigit() and "-->" not in line and line != "WEBVTT"]


def history_text(window: object, media: Path) -> str:
    entries = [e for e in window.controller.history.search("")  # type: ignore[attr-defined]
               if e.kind == EntryKind.FILE and e.source == str(media)]
    assert len(entries) == 1
    return normalized(entries[0].text)


def test_chosen_formats_go_to_the_chosen_output_folder(qtbot, parts, tmp_path: Path) -> None:
    inbox, out = tmp_path / "inbox", tmp_path / "transcripts"  # out does not exist yet: it is made
    (inbox / "monday").mkdir(parents=True)
    window = open_window(qtbot, dataclasses.replace(parts, watch=FAST))
    dialog = SettingsDialog(window.controller, window)
    qtbot.addWidget(dialog)
    page, answers = dialog.watch_page, iter([str(inbox), str(out)])
    page.choose_folder = lambda _parent: next(answers)
    options = page.outputs
    assert not options.isEnabled()  # no folder selected yet
    page.add_button.click()
    boxes = options.format_boxes
    assert options.isEnabled() and boxes["txt"].isChecked() and not boxes["txt"].isEnabled()  # the last one stays
    assert options.output_field.text() == "" and options.output_field.placeholderText() == "Beside each media file"
    for fmt in ("srt", "vtt", "json", "txt"):
        boxes[fmt].click()
    options.choose_button.click()
    assert [f for f, box in boxes.items() if box.isChecked()] == ["srt", "vtt", "json"]
    assert options.output_field.text() == str(out) and options.beside_button.isEnabled()
    dialog.accept()
    saved = SettingsStore(parts.settings_store.path).load().settings.window.watch_folders
    assert saved == [WatchFolder(str(inbox), ["srt", "vtt", "json"], str(out))]

    media = inbox / "monday" / "weather.wav"
    shutil.copy(DATA / "espeak_weather.wav", media)

    jobs, written = window.controller.jobs, out / "monday"
    qtbot.waitUntil(lambda: len(jobs.jobs) == 1 and jobs.pending() == 0, timeout=300_000)
    # written off the GUI thread one by one, and then the claim beside them is released
    qtbot.waitUntil(lambda: written.is_dir() and sorted(p.name for p in written.iterdir()) == [
        "weather.json", "weather.srt", "weather.vtt"])
    srt = (written / "weather.srt").read_text(encoding="utf-8")
    vtt = (written / "weather.vtt").read_text(encoding="utf-8")
    assert srt.startswith("1\n00:00:0") and normalized(" ".join(cue_lines(srt))) == WEATHER
    assert vtt.startswith("WEBVTT\n") and normalized(" ".join(cue_lines(vtt))) == WEATHER
    assert all(len(line) <= 42 for line in cue_lines(srt) + cue_lines(vtt))  # readable cues
    document = json.loads((written / "weather.json").read_text(encoding="utf-8"))
    assert document["file"] == str(media) and normalized(document["text"]) == WEATHER
    assert [p.name for p in (inbox / "monday").iterdir()] == ["weather.wav"]  # nothing beside it
    assert history_text(window, media) == WEATHER
    assert not window.notice.isVisible()


@contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """`folder` made read-only: its mode (0555), and, for root, whom modes do not stop, the
    immutable attribute."""
    folder.chmod(0o555)
    immutable = os.access(folder, os.W_OK)  # root
    if immutable and subprocess.run(["chattr", "+i", str(folder)], check=False).returncode != 0:
        folder.chmod(0o755)
        pytest.fail("cannot make a read-only folder here: root without chattr")
    try:
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
        folder.chmod(0o755)


def test_a_read_only_folder_is_one_line_and_the_history_keeps_the_text(qtbot, parts, tmp_path: Path,
                                                                      caplog: pytest.LogCaptureFixture) -> None:
    share = tmp_path / "read-only share"
    share.mkdir()
    media = share / "weather.wav"
    shutil.copy(DATA / "espeak_weather.wav", media)
    settings = parts.settings_store.load().settings
    settings.window.watch_folders = [WatchFolder(str(share), ["txt", "srt"])]  # beside the file
    parts.settings_store.save(settings)
    caplog.set_level(logging.ERROR, logger="app.controller.watch_outputs")

    with read_only(share):
        window = open_window(qtbot, dataclasses.replace(parts, watch=FAST))
        jobs = window.controller.jobs
        qtbot.waitUntil(lambda: len(jobs.jobs) == 1 and jobs.pending() == 0, timeout=300_000)
        qtbot.waitUntil(window.notice.isVisible)
        assert [p.name for p in share.iterdir()] == ["weather.wav"]  # no file, no temporary left

    line = window.notice.label.text()
    assert line.startswith("weather.wav: the transcript is in the History only. Cannot write transcript "
                           f"'{share / 'weather.txt'}': ")
    assert line.endswith("; the .srt was not written either.") and "\n" not in line
    assert line in caplog.messages
    assert history_text(window, media) == WEATHER


def test_the_page_shows_each_saved_folder_and_its_own_choices(qtbot, parts) -> None:
    settings = parts.settings_store.load().settings
    settings.window.watch_folders = [WatchFolder("/home/sam/Voice memos"),
                                     WatchFolder("/srv/lectures", ["srt", "json"], "/srv/subtitles")]
    parts.settings_store.save(settings)
    window = open_window(qtbot, parts, load=False)
    dialog = SettingsDialog(window.controller, window)
    qtbot.addWidget(dialog)
    dialog.tabs.setCurrentWidget(dialog.watch_page)
    dialog.show()
    qtbot.waitExposed(dialog)
    page = dialog.watch_page
    rows = [page.list.visualItemRect(page.list.item(i)) for i in range(page.list.count())]
    assert [page.list.item(i).text() for i in range(2)] == ["/home/sam/Voice memos", "/srv/lectures"]
    assert rows[0].bottom() < rows[1].top()  # whole rows, not drawn over each other
    checked = lambda: [f for f, box in page.outputs.format_boxes.items() if box.isChecked()]  # noqa: E731
    assert checked() == ["txt"] and page.outputs.output_field.text() == ""
    assert not page.outputs.beside_button.isEnabled()
    page.list.setCurrentRow(1)
    assert checked() == ["srt", "json"] and page.outputs.output_field.text() == "/srv/subtitles"
    page.outputs.beside_button.click()  # back to the default for this folder only
    assert page.outputs.output_field.text() == "" and not page.outputs.beside_button.isEnabled()
    assert page.collect()[1] == WatchFolder("/srv/lectures", ["srt", "json"], "")
    page.remove_button.click()
    assert page.collect() == [WatchFolder("/home/sam/Voice memos")] and checked() == ["txt"]
    page.list.setCurrentRow(-1)
    assert not page.outputs.isEnabled() and not page.remove_button.isEnabled()

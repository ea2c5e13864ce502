"""Watch folders on real files: a file still being written is not queued; it is queued once when it
stops growing, and again only when it changes."""

from __future__ import annotations

import os
import shutil

from earshot_testing import DATA_DIR

from app.archive.watch import FolderWatcher

CLIP = DATA_DIR / "espeak_meeting.wav"


def test_a_growing_file_is_queued_once_it_stops_growing(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    (b / "deep").mkdir(parents=True)
    a.mkdir()
    watcher = FolderWatcher([a, b], settle_s=5)
    partial = b / "deep" / "recording.wav"
    partial.write_bytes(CLIP.read_bytes()[:20000])  # a recorder still writing
    (a / "notes.txt").write_text("not media")
    assert watcher.poll(now=0) == []
    with partial.open("ab") as handle:
        handle.write(CLIP.read_bytes()[20000:40000])
    assert watcher.poll(now=6) == []  # it grew: it starts settling again
    shutil.copy(CLIP, a / "meeting.wav")
    assert watcher.poll(now=7) == []
    assert watcher.poll(now=11.5) == [partial]
    assert watcher.poll(now=12.5) == [a / "meeting.wav"]
    assert watcher.poll(now=100) == []  # reported once
    with partial.open("ab") as handle:  # changed after it was queued
        handle.write(b"\0" * 100)
    os.utime(partial, ns=(1, 1))
    assert watcher.poll(now=101) == []
    assert watcher.poll(now=107) == [partial]


def test_the_app_watcher_signals_a_copied_file(tmp_path, qtbot):
    from app.controller.watch_folders import WatchFolders

    watch = WatchFolders([tmp_path], settle_s=0.3, poll_ms=50)
    watch.start()
    with qtbot.waitSignal(watch.files_ready, timeout=10000) as signal:
        shutil.copy(CLIP, tmp_path / "dropped.wav")
    watch.stop()
    assert signal.args == [[str(tmp_path / "dropped.wav")]]

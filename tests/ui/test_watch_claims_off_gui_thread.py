"""The claims on watched files are read and written off the GUI thread: while a claim folder on a
slow network share takes seconds to create a claim (here: the create waits until the test lets it
go), the window goes on answering the keyboard, and the file is queued once the claim is there.
Real window, real files and claim files; the claim methods are wrapped only to record which
thread runs them and to hold the create back."""

from __future__ import annotations

import copy
import dataclasses
import shutil
import threading
from pathlib import Path

from gui_helpers import DATA, open_window

from app.archive.watch_claims import WatchClaims, claim_path
from app.controller.watched_files import WatchOptions
from app.settings.schema import WatchFolder


def test_a_claim_that_takes_seconds_leaves_the_window_answering(qtbot, parts, tmp_path: Path, monkeypatch) -> None:
    inbox = tmp_path / "shared inbox"
    inbox.mkdir()
    threads: list[tuple[str, threading.Thread]] = []
    taking, let_go, taken = threading.Event(), threading.Event(), threading.Event()
    take, release = WatchClaims.take, WatchClaims.release

    def slow_take(claims: WatchClaims, media: Path, folder: Path) -> bool:
        threads.append(("take", threading.current_thread()))
        taking.set()
        let_go.wait(10)  # bounded: a take on the GUI thread stalls the test instead of hanging it
        held = take(claims, media, folder)
        taken.set()
        return held

    def recorded_release(claims: WatchClaims, media: Path) -> None:
        threads.append(("release", threading.current_thread()))
        release(claims, media)

    monkeypatch.setattr(WatchClaims, "take", slow_take)
    monkeypatch.setattr(WatchClaims, "release", recorded_release)
    window = open_window(qtbot, dataclasses.replace(parts, watch=WatchOptions(poll_ms=100, settle_s=0.3)), load=False)
    settings = copy.deepcopy(window.controller.settings)
    settings.window.watch_folders = [WatchFolder(str(inbox))]
    window.controller.apply_settings(settings)  # as Settings > Watch folders applies it
    shutil.copy(DATA / "espeak_weather.wav", inbox / "weather.wav")
    qtbot.waitUntil(taking.is_set, timeout=10_000)

    search = window.history_panel.search
    qtbot.keyClicks(search, "weather")
    qtbot.waitUntil(lambda: window.history_panel.delegate.query == "weather")  # its debounce timer ran
    assert not taken.is_set()  # the window answered while the claim was still being created
    jobs = window.controller.jobs
    assert jobs.jobs == {}  # not queued before its claim is held

    let_go.set()
    qtbot.waitUntil(lambda: len(jobs.jobs) == 1)
    claim = claim_path(inbox / "weather.wav", inbox)
    assert claim.is_file()
    (job,) = jobs.jobs.values()
    jobs.cancel(job.id)  # its job ends: the claim is given up
    qtbot.waitUntil(lambda: not claim.exists(), timeout=60_000)
    assert [name for name, _thread in threads] == ["take", "release"]
    assert all(thread is not threading.main_thread() for _name, thread in threads)

"""A watched file is looked at, and its transcript files written, off the GUI thread: while a
watch folder on a slow network share takes seconds to answer whether a file's transcripts are
there already, or to take a transcript file (here: each waits until the test lets it go), the
window goes on answering the keyboard. The file is queued once the look has answered, its files
appear once the write is let go, and only then is its claim released (at quit as well: the quit
waits for the write). Real window, real model, real files and claim files; the look and the write
are wrapped only to record which thread runs them and to hold them back."""

from __future__ import annotations

import copy
import dataclasses
import shutil
import threading
from pathlib import Path

from gui_helpers import DATA, open_window

from app.archive.watch_claims import WatchClaims, claim_path
from app.controller import watch_outputs
from app.controller.watched_files import WatchOptions
from app.settings.schema import WatchFolder
from app.ui.main_window import MainWindow

FAST = WatchOptions(poll_ms=100, settle_s=0.3)


class Held:
    """Calls that record their thread and wait (bounded) until `let_go` is set: on the GUI thread
    such a call stalls the test for seconds instead of hanging it."""

    def __init__(self) -> None:
        self.threads: list[threading.Thread] = []
        self.started, self.let_go, self.returned = threading.Event(), threading.Event(), threading.Event()

    def hold(self) -> None:
        self.threads.append(threading.current_thread())
        self.started.set()
        self.let_go.wait(10)

    @property
    def off_gui_thread(self) -> bool:
        return bool(self.threads) and all(thread is not threading.main_thread() for thread in self.threads)


def watch(qtbot, parts, inbox: Path, load: bool) -> MainWindow:
    window = open_window(qtbot, dataclasses.replace(parts, watch=FAST), load=load)
    settings = copy.deepcopy(window.controller.settings)
    settings.window.watch_folders = [WatchFolder(str(inbox), ["txt", "srt"])]
    window.controller.apply_settings(settings)  # as Settings > Watch folders applies it
    shutil.copy(DATA / "espeak_weather.wav", inbox / "weather.wav")
    return window


def answers_while(qtbot, window: MainWindow, held: Held, typed: str) -> None:
    """Type `typed` into the History search while `held` is held, and see the window take it."""
    qtbot.waitUntil(held.started.is_set, timeout=300_000)
    search = window.history_panel.search
    search.clear()
    qtbot.keyClicks(search, typed)
    qtbot.waitUntil(lambda: window.history_panel.delegate.query == typed)  # its debounce timer ran
    assert not held.returned.is_set()  # the window answered while the share had not


def hold_writes(parts, monkeypatch) -> tuple[Held, list[tuple[str, bool]]]:
    """Hold the first transcript file's write; record each claim release and whether the
    transcripts were all there at that moment."""
    held, releases = Held(), []
    write, release = parts.exporter.write, WatchClaims.release

    def slow_write(fmt, transcript, target, subtitles=None):
        held.hold()
        written = write(fmt, transcript, target, subtitles)
        held.returned.set()
        return written

    def recorded_release(claims: WatchClaims, media: Path) -> None:
        there = all((media.parent / f"{media.stem}.{fmt}").is_file() for fmt in ("txt", "srt"))
        releases.append((threading.current_thread().name, there))
        release(claims, media)

    monkeypatch.setattr(parts.exporter, "write", slow_write)
    monkeypatch.setattr(WatchClaims, "release", recorded_release)
    return held, releases


def test_a_look_at_the_share_that_takes_seconds_leaves_the_window_answering(
    qtbot, parts, tmp_path: Path, monkeypatch
) -> None:
    inbox = tmp_path / "shared inbox"
    inbox.mkdir()
    held, targets = Held(), watch_outputs.transcript_targets

    def slow_targets(folder: WatchFolder, media: Path) -> list[Path]:
        held.hold()  # transcripts_written_since asks where the transcript files are, then stats them
        found = targets(folder, media)
        held.returned.set()
        return found

    monkeypatch.setattr(watch_outputs, "transcript_targets", slow_targets)
    window = watch(qtbot, parts, inbox, load=False)
    answers_while(qtbot, window, held, "weather")
    jobs = window.controller.jobs
    assert jobs.jobs == {}  # not queued before the look has answered
    assert not claim_path(inbox / "weather.wav", inbox).exists()  # looked at before it is claimed

    held.let_go.set()
    qtbot.waitUntil(lambda: len(jobs.jobs) == 1)
    (job,) = jobs.jobs.values()
    jobs.cancel(job.id)  # no transcript wanted here: its claim is given up
    qtbot.waitUntil(lambda: not claim_path(inbox / "weather.wav", inbox).exists(), timeout=60_000)
    assert held.off_gui_thread


def test_a_transcript_write_that_takes_seconds_leaves_the_window_answering(
    qtbot, parts, tmp_path: Path, monkeypatch
) -> None:
    inbox = tmp_path / "shared inbox"
    inbox.mkdir()
    held, releases = hold_writes(parts, monkeypatch)
    window = watch(qtbot, parts, inbox, load=True)
    answers_while(qtbot, window, held, "weather")
    claim = claim_path(inbox / "weather.wav", inbox)
    assert claim.is_file() and releases == []  # held while its files are written

    held.let_go.set()
    qtbot.waitUntil(lambda: not claim.exists(), timeout=60_000)
    assert sorted(p.name for p in inbox.iterdir()) == ["weather.srt", "weather.txt", "weather.wav"]
    assert len(releases) == 1 and releases[0][1]  # released once, after the files were there
    assert held.off_gui_thread and releases[0][0] != threading.main_thread().name
    assert not window.notice.isVisible()


def test_the_quit_waits_for_a_transcript_write_before_it_releases_the_claim(
    qtbot, parts, tmp_path: Path, monkeypatch
) -> None:
    inbox = tmp_path / "shared inbox"
    inbox.mkdir()
    held, releases = hold_writes(parts, monkeypatch)
    window = watch(qtbot, parts, inbox, load=True)
    qtbot.waitUntil(held.started.is_set, timeout=300_000)
    threading.Timer(1.0, held.let_go.set).start()  # the share answers a second into the quit

    window.controller.watched.stop()  # as the quit stops it
    assert held.returned.is_set()
    assert sorted(p.name for p in inbox.iterdir()) == ["weather.srt", "weather.txt", "weather.wav"]
    assert releases == [(threading.main_thread().name, True)]  # at quit, on the quitting thread
    assert held.off_gui_thread

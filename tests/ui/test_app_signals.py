"""The window's app stopped by a signal while it transcribes a watch folder: a real `python -m app`
process (offscreen Qt, the real tiny.en), real signals. SIGTERM, SIGINT and SIGHUP end it within
seconds with 128 + the signal's number and nothing left running under it; what it finished is in
the History, and the next start transcribes the rest of the folder. SIGKILL loses only the file in
progress, which the next start does again."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from earshot_testing import REPO_ROOT, process_tree, read_wav, still_running, write_wav
from gui_helpers import DATA

from app.settings.schema import WatchFolder
from app.settings.store import SettingsStore

CLIPS = ["espeak_weather.wav", "espeak_meeting.wav", "espeak_morning.wav"]
STOP_WITHIN_S = 10.0


def _environment(home: Path, inbox: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "QT_QPA_PLATFORM": "offscreen",
           "XDG_CONFIG_HOME": str(home / "config"), "XDG_DATA_HOME": str(home / "data"),
           "EARSHOT_DATA_DIR": str(home / "data" / "earshot"), "XDG_RUNTIME_DIR": str(home / "run"),
           "EARSHOT_CONTROL_SOCKET": str(home / "run" / "earshot.sock")}
    (home / "run").mkdir(mode=0o700, exist_ok=True)
    store = SettingsStore(home / "config" / "earshot" / "settings.toml")
    settings = store.load().settings
    settings.window.watch_folders = [WatchFolder(str(inbox))]
    settings.output.hotkey = ""  # no global hotkey: nothing to grab without a display
    store.save(settings)
    return env


def _transcribed(home: Path) -> set[str]:
    """The sources of the History's file entries, read as any other program would (read-only)."""
    db = home / "data" / "earshot" / "history.sqlite3"
    if not db.exists():
        return set()
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            rows = conn.execute("SELECT source FROM entries WHERE kind = 'file'").fetchall()
    except sqlite3.Error:
        return set()  # not created yet
    return {Path(row[0]).name for row in rows}


def _inbox(folder: Path) -> list[str]:
    """The clips, then a long file (every clip twice over, ~25 s) that is still being
    transcribed when the signal comes."""
    folder.mkdir()
    for name in CLIPS:
        shutil.copy(DATA / name, folder / name)
    audio = np.concatenate([read_wav(DATA / name) for _ in range(2) for name in CLIPS])
    write_wav(folder / "zz_long.wav", audio)
    return [*CLIPS, "zz_long.wav"]


def _start(env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "app"], env=env, cwd=REPO_ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _wait_for(app: subprocess.Popen[str], home: Path, count: int) -> None:
    deadline = time.monotonic() + 300
    while len(_transcribed(home)) < count:
        assert app.poll() is None, app.communicate()
        assert time.monotonic() < deadline, f"only {_transcribed(home)} transcribed"
        time.sleep(0.1)


@contextlib.contextmanager
def _killed_if_left(app: subprocess.Popen[str]) -> Iterator[subprocess.Popen[str]]:
    """`app`, killed when the block leaves it running (a failed wait), so no test leaves it behind."""
    try:
        yield app
    finally:
        if app.poll() is None:
            app.kill()
            app.communicate()


def _stop_with(app: subprocess.Popen[str], signum: int) -> tuple[list[int], str]:
    """(the app's process tree just before, its stderr) after `signum` and its exit."""
    tree = process_tree(app.pid)
    app.send_signal(signum)
    _, stderr = app.communicate(timeout=STOP_WITHIN_S)
    return tree, stderr


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGKILL],
                         ids=lambda s: signal.Signals(s).name)
def test_a_signal_ends_the_app_and_the_next_start_finishes_the_watch_folder(tmp_path, signum):
    inbox = tmp_path / "inbox"
    names = _inbox(inbox)
    env = _environment(tmp_path, inbox)
    with _killed_if_left(_start(env)) as app:
        _wait_for(app, tmp_path, 1)
        tree, stderr = _stop_with(app, signum)
    assert app.returncode == (-signum if signum == signal.SIGKILL else 128 + signum), stderr
    assert "Traceback" not in stderr, stderr
    assert still_running(tree) == []
    finished = _transcribed(tmp_path)
    assert finished and "zz_long.wav" not in finished  # stopped mid-folder
    if signum in (signal.SIGINT, signal.SIGHUP):
        return  # the same quit as SIGTERM's, whose next start is checked

    again = _start(env)
    try:
        _wait_for(again, tmp_path, len(names))
        again.send_signal(signal.SIGTERM)
        again.communicate(timeout=STOP_WITHIN_S)
    finally:
        if again.poll() is None:
            again.kill()
            again.communicate()
    assert _transcribed(tmp_path) == set(names)


def _dictated(home: Path) -> list[tuple[int, str]]:
    """(id, text) of the History's dictation entries, read as any other program would."""
    db = home / "data" / "earshot" / "history.sqlite3"
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            return conn.execute("SELECT id, text FROM entries WHERE kind = 'dictation'").fetchall()
    except sqlite3.Error:
        return []  # not created yet


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=lambda s: signal.Signals(s).name)
def test_a_signal_mid_dictation_keeps_the_text_and_the_audio_not_transcribed_yet(tmp_path, signum):
    """The window dictating (a recording replayed in real time, as a microphone would give it) when
    a logout's SIGTERM, Ctrl-C or a closed terminal ends it: the text committed so far is in the
    History, and the audio heard after it is kept for the next start to offer (Quit is not
    Cancel: it used to be thrown away)."""
    from app.dictation.audio_journal import find_leftovers

    inbox = tmp_path / "inbox"
    inbox.mkdir()
    env = _environment(tmp_path, inbox)
    speech = tmp_path / "speech.wav"
    write_wav(speech, np.concatenate([read_wav(DATA / name) for _ in range(3) for name in CLIPS]))
    app = subprocess.Popen([sys.executable, "-m", "app", "--replay", str(speech)], env=env, cwd=REPO_ROOT,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    with _killed_if_left(app):
        deadline = time.monotonic() + 180
        while subprocess.run([sys.executable, "-m", "app", "start"], env=env, cwd=REPO_ROOT,
                             capture_output=True).returncode != 0:
            assert app.poll() is None and time.monotonic() < deadline, "the app did not start dictating"
            time.sleep(0.5)
        while not any(text.strip() for _id, text in _dictated(tmp_path)):
            assert app.poll() is None and time.monotonic() < deadline, "no text was committed"
            time.sleep(0.1)
        [(_id, before)] = _dictated(tmp_path)
        tree, stderr = _stop_with(app, signum)
    assert app.returncode == 128 + signum and "Traceback" not in stderr, stderr
    assert still_running(tree) == []
    [(entry_id, text)] = _dictated(tmp_path)
    assert text.startswith(before.rstrip()), (before, text)  # nothing committed before the signal is lost
    # the first clip's words (tiny.en int8 in real time writes "weather" as "the" at times)
    assert {"weather", "today", "sunny"} & set(text.lower().replace(".", " ").split()), text
    [leftover] = find_leftovers(tmp_path / "data" / "earshot" / "recovery")
    assert leftover.entry_id == entry_id and leftover.duration_s > 0


def test_a_second_start_of_the_app_leaves_the_watch_folder_to_the_first(tmp_path):
    """Two starts of the app on one desktop (a double click in the menu, an autostart): the second
    hands over to the running one (its window comes to the front) and ends with 0 at once, so one
    app watches the folder and each file is transcribed once."""
    inbox = tmp_path / "inbox"
    names = _inbox(inbox)
    env = _environment(tmp_path, inbox)
    with _killed_if_left(_start(env)) as first:
        deadline = time.monotonic() + 180
        while subprocess.run([sys.executable, "-m", "app", "status"], env=env, cwd=REPO_ROOT,
                             capture_output=True).returncode != 0:
            assert first.poll() is None and time.monotonic() < deadline, "the first app did not start"
            time.sleep(0.5)
        tree = process_tree(first.pid)
        second = subprocess.run([sys.executable, "-m", "app"], env=env, cwd=REPO_ROOT, capture_output=True, text=True,
                                timeout=120)
        assert second.returncode == 0 and "Traceback" not in second.stderr, second.stderr
        _wait_for(first, tmp_path, len(names))
        _, stderr = _stop_with(first, signal.SIGTERM)
    assert first.returncode == 128 + signal.SIGTERM and "Traceback" not in stderr, stderr
    assert still_running(tree) == []
    db = tmp_path / "data" / "earshot" / "history.sqlite3"
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        sources = [Path(row[0]).name for row in conn.execute("SELECT source FROM entries WHERE kind = 'file'")]
    assert sorted(sources) == sorted(names)  # each once

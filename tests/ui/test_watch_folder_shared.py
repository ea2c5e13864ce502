"""Two apps (two users, each with their own settings and History) watching one shared folder:
each file in it is transcribed once, by one of them, its transcript written once; the other app
passes it over then and at its next start. Real engine (tiny.en) in each app, real files, real
claim files in the shared output folder; the poll is made short through `AppParts.watch`."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

from gui_helpers import CLIPS, DATA, normalized, open_window

from app.archive.watch_claims import CLAIM_SUFFIX
from app.composition import build_parts
from app.controller.app_controller import AppParts
from app.controller.watched_files import WatchOptions
from app.settings.schema import WatchFolder
from app.ui.main_window import MainWindow

FAST = WatchOptions(poll_ms=100, settle_s=0.3)
NAMES = ("espeak_weather.wav", "espeak_meeting.wav", "espeak_morning.wav")


def watching(qtbot: object, parts: AppParts, folder: WatchFolder) -> MainWindow:
    settings = parts.settings_store.load().settings
    settings.window.watch_folders = [folder]
    parts.settings_store.save(settings)
    return open_window(qtbot, dataclasses.replace(parts, watch=FAST))


def test_two_apps_watching_one_shared_folder_transcribe_each_file_once(qtbot, parts, tmp_path: Path) -> None:
    shared, out = tmp_path / "shared inbox", tmp_path / "shared transcripts"
    shared.mkdir()
    folder = WatchFolder(str(shared), ["txt"], str(out))
    other_parts = build_parts(tmp_path / "bob" / "settings.toml", tmp_path / "bob" / "history.sqlite3")
    apps = [watching(qtbot, parts, folder), watching(qtbot, other_parts, folder)]
    for name in NAMES:
        shutil.copy(DATA / name, shared / name)

    def done() -> bool:
        written = {p.name for p in out.iterdir()} if out.is_dir() else set()
        return written == {n.replace(".wav", ".txt") for n in NAMES} and all(
            app.controller.jobs.pending() == 0 for app in apps)

    qtbot.waitUntil(done, timeout=300_000)
    qtbot.wait(1500)  # several more polls of both apps: nothing is queued again
    jobs = [job for app in apps for job in app.controller.jobs.jobs.values()]
    assert sorted(job.path.name for job in jobs) == sorted(NAMES)  # each once, by one app or the other
    for name in NAMES:
        text = (out / name.replace(".wav", ".txt")).read_text(encoding="utf-8")
        assert normalized(text) == normalized(CLIPS[name]["text"])
    assert not [p for p in out.iterdir() if p.name.endswith(CLAIM_SUFFIX)]  # every claim released

    apps[1].close()  # the second user's next start: its History has none of them, the folder has all
    again = watching(qtbot, other_parts, folder)
    qtbot.wait(2000)
    assert again.controller.jobs.jobs == {}


def test_a_file_claimed_by_another_machine_waits_until_its_claim_goes(qtbot, parts, tmp_path: Path) -> None:
    # the other machine cannot exist here: its claim is the file it would write, with its host name
    shared = tmp_path / "shared inbox"
    shared.mkdir()
    claim = shared / f".espeak_weather.wav{CLAIM_SUFFIX}"
    claim.write_text("laptop-of-someone-else 4242\n")
    window = watching(qtbot, parts, WatchFolder(str(shared)))
    shutil.copy(DATA / "espeak_weather.wav", shared / "espeak_weather.wav")
    qtbot.wait(2000)  # settled and polled many times: the claim holds it back
    assert window.controller.jobs.jobs == {}
    claim.unlink()  # the other machine's app gave up (its job failed, or it quit)
    jobs = window.controller.jobs
    qtbot.waitUntil(lambda: len(jobs.jobs) == 1 and jobs.pending() == 0, timeout=300_000)
    written = shared / "espeak_weather.txt"
    qtbot.waitUntil(written.exists)
    assert normalized(written.read_text(encoding="utf-8")) == normalized(CLIPS["espeak_weather.wav"]["text"])
    qtbot.waitUntil(lambda: not claim.exists())  # released off the GUI thread once the files are written

"""Claims on watched files shared by several apps: real processes racing for the same files, a
holder killed with SIGKILL, another machine's claim (its host name written in the file), another
user's claim this user may not read (a process without root's permission override)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from earshot_testing import OTHER_USER, REPO_ROOT, without_file_permission_override

from app.archive.watch_claims import WatchClaims, claim_path

TAKE_ALL = """
import sys, time
from pathlib import Path
from app.archive.watch_claims import WatchClaims
folder, go = Path(sys.argv[1]), Path(sys.argv[2])
while not go.exists():
    time.sleep(0.001)
claims = WatchClaims()
for media in sorted(folder.glob("*.wav")):
    if claims.take(media, folder):
        print(media.name, flush=True)
"""

TAKE_ONE_AND_WAIT = """
import sys, time
from pathlib import Path
from app.archive.watch_claims import WatchClaims
media = Path(sys.argv[1])
print(WatchClaims().take(media, media.parent), flush=True)
time.sleep(600)
"""

TAKE_ONE = """
import sys
from pathlib import Path
from app.archive.watch_claims import WatchClaims
media = Path(sys.argv[1])
print(WatchClaims().take(media, media.parent))
"""


def python(script: str, *args: object) -> list[str]:
    return [sys.executable, "-c", script, *map(str, args)]


def test_two_apps_racing_for_the_same_files_take_each_file_once(tmp_path: Path) -> None:
    names = [f"clip{i:02}.wav" for i in range(40)]
    for name in names:
        (tmp_path / name).write_bytes(b"RIFF")
    go = tmp_path / "go"
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    racers = [
        subprocess.Popen(python(TAKE_ALL, tmp_path, go), stdout=subprocess.PIPE, text=True, env=env) for _ in range(2)
    ]
    time.sleep(1.0)  # both are waiting for the start
    go.touch()
    won = [set(racer.communicate(timeout=60)[0].split()) for racer in racers]
    assert won[0] | won[1] == set(names)
    assert won[0] & won[1] == set()


def test_a_claim_left_by_a_killed_app_is_taken_over(tmp_path: Path) -> None:
    media = tmp_path / "meeting.wav"
    media.write_bytes(b"RIFF")
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    holder = subprocess.Popen(python(TAKE_ONE_AND_WAIT, media), stdout=subprocess.PIPE, text=True, env=env)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "True"
    claims = WatchClaims()
    assert not claims.take(media, tmp_path)  # its holder runs
    holder.send_signal(signal.SIGKILL)
    holder.communicate(timeout=10)
    assert claims.take(media, tmp_path)
    assert claim_path(media, tmp_path).read_text() == f"{socket.gethostname()} {os.getpid()}\n"


def test_another_machines_claim_is_respected_until_it_is_no_longer_refreshed(tmp_path: Path) -> None:
    media = tmp_path / "meeting.wav"
    claim = claim_path(media, tmp_path)
    claim.write_text("laptop-of-someone-else 1\n")
    claims = WatchClaims(stale_s=120)
    assert not claims.take(media, tmp_path)
    os.utime(claim, (time.time() - 100, time.time() - 100))
    assert not claims.take(media, tmp_path)
    os.utime(claim, (time.time() - 130, time.time() - 130))  # its machine went off two minutes ago
    assert claims.take(media, tmp_path)
    assert claims.held == {media: claim}


def test_held_claims_are_refreshed_and_deleted_when_released(tmp_path: Path) -> None:
    media = tmp_path / "meeting.wav"
    claims = WatchClaims()
    assert claims.take(media, tmp_path / "out")  # the output folder is made
    claim = claim_path(media, tmp_path / "out")
    os.utime(claim, (0, 0))
    claims.refresh()
    assert time.time() - claim.stat().st_mtime < 60
    claims.release_all()
    assert not claim.exists() and claims.held == {}


def test_another_users_claim_this_user_may_not_read_is_judged_by_its_age(tmp_path: Path) -> None:
    tmp_path.chmod(0o777)
    media = tmp_path / "meeting.wav"
    claim = claim_path(media, tmp_path)
    claim.write_text(f"{socket.gethostname()} 1\n")
    os.chown(claim, OTHER_USER, OTHER_USER)
    claim.chmod(0o600)
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    taker = without_file_permission_override(python(TAKE_ONE, media))
    assert subprocess.run(taker, capture_output=True, text=True, env=env, check=True).stdout.strip() == "False"
    os.utime(claim, (time.time() - 300, time.time() - 300))
    assert subprocess.run(taker, capture_output=True, text=True, env=env, check=True).stdout.strip() == "True"


def test_where_no_claim_can_be_made_the_file_is_not_passed_over(tmp_path: Path) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the output folder should be")
    claims = WatchClaims()
    assert claims.take(tmp_path / "meeting.wav", blocked)  # writing the transcripts will say why
    assert claims.held == {}


def test_a_folder_where_the_claim_goes_does_not_hold_the_file_back_forever(tmp_path: Path) -> None:
    media = tmp_path / "meeting.wav"
    claim_path(media, tmp_path).mkdir()
    claims = WatchClaims()
    assert claims.take(media, tmp_path)  # damage in the shared folder: transcribed without a claim
    assert claims.held == {}


def test_a_damaged_claim_is_taken_over_once_it_is_a_few_seconds_old(tmp_path: Path) -> None:
    media = tmp_path / "meeting.wav"
    claim = claim_path(media, tmp_path)
    claim.write_bytes(b"\x96\x00\xffgarbage")
    claims = WatchClaims()
    assert not claims.take(media, tmp_path)  # just written: perhaps another app is writing it now
    os.utime(claim, (time.time() - 10, time.time() - 10))
    assert claims.take(media, tmp_path)
    assert claim.read_text() == f"{socket.gethostname()} {os.getpid()}\n"

"""Helpers shared by the test modules (paths, clips, WAV reading). Import as `earshot_testing`."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import wave
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
DATA_DIR = REPO_ROOT / "tests" / "data"
SHARED_SPEECH = REPO_ROOT.parent / "shared" / "data" / "speech"


def read_wav(path: Path) -> np.ndarray:
    """16-bit PCM WAV (16 kHz mono) -> float32 [n_samples] in [-1, 1]."""
    with wave.open(str(path), "rb") as wav:
        assert wav.getframerate() == 16000 and wav.getnchannels() == 1
        pcm = np.frombuffer(wav.readframes(wav.getnframes()), dtype="<i2")
    return (pcm.astype(np.float32) / 32768.0).astype(np.float32)


def write_wav(path: Path, audio: np.ndarray) -> None:
    """float32 [n_samples] in [-1, 1] -> 16-bit PCM WAV, 16 kHz mono."""
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(16000)
        wav.writeframes((np.clip(audio, -1.0, 1.0) * 32767).astype("<i2").tobytes())


def espeak_clips() -> list[dict[str, str]]:
    """The committed espeak-ng clips with speech: [{"file", "text", ...}]."""
    listing = json.loads((DATA_DIR / "clips.json").read_text(encoding="utf-8"))
    return [c for c in listing["clips"] if c["kind"] == "speech"]


def shared_manifest() -> list[dict[str, str]]:
    """Rows of ../shared/data/speech/manifest.csv, or [] when that folder is absent."""
    import csv

    manifest = SHARED_SPEECH / "manifest.csv"
    if not manifest.is_file():
        return []
    with manifest.open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def shared_english() -> list[dict[str, str]]:
    return [r for r in shared_manifest() if r["language"] == "en"]


@contextmanager
def tmpfs(path: Path, options: str) -> Iterator[Path]:
    """A real, separate file system at `path` (we run as root here and in CI): `size=64k` makes
    a disk that fills up, `ro` one that refuses every write."""
    path.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)], check=True)
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


OTHER_USER = 65534
"""A uid and gid that are not root's (Debian's `nobody`/`nogroup`): the owner of the files that a
test's process may not read."""

_OVERRIDES = "-dac_override,-dac_read_search,-fowner"


def without_file_permission_override(args: list[str]) -> list[str]:
    """`args` run as root without the capabilities that set file permissions aside (util-linux's
    `setpriv` drops CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH and CAP_FOWNER from the bounding and
    inheritable sets before it execs `args`). The tests run as root, which reads any file whatever
    its mode; such a process meets another user's 0600 file as a user does ("Permission denied"),
    while its own files and folders (the venv's Python under a 0700 /root included) stay its."""
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.fail("setpriv (util-linux) is needed to run a process that root's file permission override is "
                    "taken from: install util-linux (.ci/run does)")
    return [setpriv, f"--inh-caps={_OVERRIDES}", f"--bounding-set={_OVERRIDES}", "--", *args]


def home_env(home: Path, **extra: str) -> dict[str, str]:
    """The environment of an Earshot process with all its folders in `home` (plus `extra`)."""
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL", "QT_QPA_PLATFORM", "CI")}
    return {**keep, "HOME": str(home), "PYTHONPATH": str(REPO_ROOT), "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_DATA_HOME": str(home / "data"), "XDG_CACHE_HOME": str(home / "cache"),
            "EARSHOT_DATA_DIR": str(home / "data" / "earshot"), "EARSHOT_CACHE_DIR": str(home / "cache" / "earshot"),
            "EARSHOT_LOG_DIR": str(home / "log" / "earshot"), "XDG_RUNTIME_DIR": str(home), **extra}


def another_users(path: Path) -> Path:
    """Make `path` another user's private file (uid and gid 65534, mode 0600), as `sudo earshot`
    leaves one in a user's folders: a process started `without_file_permission_override` may
    neither read nor write it, nor change its mode."""
    os.chown(path, OTHER_USER, OTHER_USER)
    os.chmod(path, 0o600)
    return path


def fill_up(folder: Path) -> None:
    """Write zeros until the file system says it is full (ENOSPC)."""
    with (folder / "filler").open("wb", buffering=0) as filler:
        try:
            while True:
                filler.write(b"\0" * 4096)
        except OSError as error:
            assert error.errno == 28, error  # ENOSPC: the disk really is full


def process_tree(root: int) -> list[int]:
    """Every process descending from `root` (children, their children, ...), read from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue  # ended while listed
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def still_running(pids: list[int]) -> list[str]:
    """Those of `pids` that are still running, as "pid command line" (a zombie has ended: only its
    exit status waits for a parent, and a container's init may never collect it)."""
    running = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, IndexError):
            continue
        if state not in ("Z", "X"):
            running.append(f"{pid} {command[:120]}")
    return running


needs_shared = pytest.mark.skipif(not SHARED_SPEECH.is_dir(), reason="../shared/data/speech is not present")


def require_tools(*tools: str) -> None:
    """Fail in CI (which installs them), skip elsewhere, when a desktop tool is missing."""
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        message = f"missing {', '.join(missing)}: apt-get install them (.ci/run does)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@contextmanager
def xvfb(*tools: str) -> Iterator[str]:
    """A private Xvfb server; yields its DISPLAY (":N"), chosen by Xvfb itself. `tools` are
    other programs the caller needs (checked first)."""
    require_tools("Xvfb", *tools)
    read_fd, write_fd = os.pipe()
    # -noreset: by default Xvfb resets when its last client disconnects and refuses connections
    # meanwhile (a test that opened and closed the display, then opened it again, got ECONNRESET).
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"],
        pass_fds=(write_fd,), stderr=subprocess.DEVNULL,
    )
    os.close(write_fd)
    with os.fdopen(read_fd) as pipe:
        number = pipe.readline().strip()
    try:
        assert number.isdigit(), "Xvfb did not report a display"
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=10)


def too_open(roots: list[Path]) -> list[str]:
    """Every folder under `roots` that is not 0700 and every file that is not 0600, with its mode."""
    found = []
    for root in roots:
        for path in [root, *root.rglob("*")]:
            mode = stat.S_IMODE(path.lstat().st_mode)
            if mode != (0o700 if path.is_dir() else 0o600):
                found.append(f"{oct(mode)} {path}")
    return found


SQLITE_LOCKER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.readline()
db.execute("COMMIT")
"""
"""`python -c SQLITE_LOCKER DB`: another process holding DB locked; prints "locked", lets go at a line on stdin."""


@contextmanager
def locked_by_another_process(db: Path) -> Iterator[None]:
    """Another process (the sqlite3 module, as any other program would) holds BEGIN EXCLUSIVE."""
    with subprocess.Popen([sys.executable, "-c", SQLITE_LOCKER, str(db)], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True) as locker:  # closes its pipes (ResourceWarning)
        assert locker.stdout is not None and locker.stdin is not None
        try:
            assert locker.stdout.readline().strip() == "locked"
            yield
        finally:
            locker.stdin.write("\n")
            locker.stdin.flush()
            locker.wait(10)


@contextmanager
def private_pulseaudio(runtime: Path, log_path: Path) -> Iterator[tuple[dict[str, str], subprocess.Popen[bytes]]]:
    """A private PulseAudio in `runtime` (XDG_RUNTIME_DIR) with a null sink `vsink` whose monitor is
    the default source; yields (its environment, its process) and stops it afterwards."""
    import time

    env = {k: v for k, v in os.environ.items() if k not in ("PULSE_SERVER", "PULSE_RUNTIME_PATH")}
    env["XDG_RUNTIME_DIR"] = str(runtime)
    log = log_path.open("wb")
    proc = subprocess.Popen(
        ["pulseaudio", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit", "-n",
         "--load=module-native-protocol-unix", "--load=module-null-sink sink_name=vsink"],
        env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 15
        while subprocess.run(["pactl", "info"], env=env, capture_output=True).returncode != 0:
            assert proc.poll() is None, log_path.read_text(errors="replace")
            assert time.monotonic() < deadline, "PulseAudio did not come up"
            time.sleep(0.1)
        subprocess.run(["pactl", "set-default-source", "vsink.monitor"], env=env, check=True)
        yield env, proc
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()

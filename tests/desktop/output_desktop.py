"""Helpers for the desktop-output tests: a private Xvfb, target windows in other processes,
the X clipboard seen from another process (xclip). Import as `output_desktop`."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from earshot_testing import require_tools
from earshot_testing import xvfb as shared_xvfb

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
WAIT_S = 20.0  # how long to wait for something to arrive (a deadline, not a timing assert)


@contextmanager
def xvfb() -> Iterator[str]:
    """A private Xvfb server with the tools these tests drive it with; yields its DISPLAY."""
    with shared_xvfb("xdotool", "xclip", "xterm") as display:
        yield display


@contextmanager
def pulseaudio(folder: Path) -> Iterator[dict[str, str]]:
    """A private PulseAudio server with a null sink whose monitor is the default source: what is
    played to the sink (paplay --device=vsink) is what the microphone hears. Yields the
    environment variables that point programs at it."""
    require_tools("pulseaudio", "pactl", "paplay")
    runtime = folder / "xdg-runtime"
    runtime.mkdir(mode=0o700, parents=True, exist_ok=True)
    env = dict(os.environ, XDG_RUNTIME_DIR=str(runtime))
    log = (folder / "pulse.log").open("wb")
    server = subprocess.Popen(
        ["pulseaudio", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit", "-n",
         "--load=module-native-protocol-unix", "--load=module-null-sink sink_name=vsink"],
        env=env, stdout=log, stderr=log,
    )
    try:
        wait_until(lambda: subprocess.run(["pactl", "info"], env=env, capture_output=True).returncode == 0,
                   "PulseAudio to start")
        subprocess.run(["pactl", "set-default-source", "vsink.monitor"], env=env, check=True, timeout=10)
        yield {"XDG_RUNTIME_DIR": str(runtime)}
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()


def wait_until(check: Callable[[], bool], what: str, timeout: float = WAIT_S,
               state: Callable[[], object] | None = None) -> None:
    """Poll `check`; on timeout fail with `what` and, if given, what `state()` shows then."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            seen = f"; it shows {state()!r}" if state is not None else ""
            raise AssertionError(f"gave up waiting for {what}{seen}")
        time.sleep(0.05)


def settled_text(read: Callable[[], str], settle_s: float = 1.5, timeout: float = WAIT_S) -> str:
    """`read()` once it is non-empty and has not changed for `settle_s` (typing has finished).
    (Waiting for a final period instead failed about once in ten runs: whether Whisper ends the
    sentence with one depends on a few ms of capture timing.)"""
    deadline = time.monotonic() + timeout
    last, since = read(), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.1)
        now = read()
        if now != last:
            last, since = now, time.monotonic()
        elif now.strip() and time.monotonic() - since >= settle_s:
            return now
    raise AssertionError(f"the text never settled; it shows {last!r}")


def xdotool(display: str, *args: str) -> str:
    result = subprocess.run(["xdotool", *args], env=dict(os.environ, DISPLAY=display),
                            capture_output=True, text=True, timeout=30, check=True)
    return result.stdout.strip()


def focused_window(display: str) -> str:
    return xdotool(display, "getwindowfocus")


@dataclass
class Receiver:
    """Another app's window: `read()` is what arrived in it."""

    display: str
    window: str
    out: Path
    process: subprocess.Popen[bytes]

    def read(self) -> str:
        return self.out.read_text(encoding="utf-8") if self.out.exists() else ""

    def focus(self) -> None:
        """Give it the keyboard focus (there is no window manager: plain XSetInputFocus)."""

        def focused() -> bool:
            env = dict(os.environ, DISPLAY=self.display)  # windowfocus fails until the window is mapped
            subprocess.run(["xdotool", "windowfocus", "--sync", self.window], env=env,
                           capture_output=True, timeout=30, check=False)
            return focused_window(self.display) == self.window

        wait_until(focused, f"the focus on window {self.window}")

    def wait_for_text(self, expected: str) -> str:
        wait_until(lambda: expected in self.read(), f"{expected!r} in the window (has {self.read()!r})")
        return self.read()

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _open(display: str, title: str, argv: list[str], out: Path, env: dict[str, str]) -> Receiver:
    process = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        window = xdotool(display, "search", "--sync", "--onlyvisible", "--name", f"^{title}$").split()[0]
    except BaseException:
        process.kill()
        raise
    receiver = Receiver(display, window, out, process)
    receiver.focus()
    return receiver


def open_qt_receiver(display: str, folder: Path, title: str = "Receiver") -> Receiver:
    """A Qt line edit in its own process, focused."""
    out = folder / f"{title}.txt"
    env = dict(os.environ, DISPLAY=display, QT_QPA_PLATFORM="xcb")
    argv = [sys.executable, str(HERE / "receiver_window.py"), title, str(out)]
    return _open(display, title, argv, out, env)


def open_xterm_receiver(display: str, folder: Path, title: str = "Terminal") -> Receiver:
    """An xterm running `cat > FILE`, focused. Lines reach the file when Return is pressed."""
    out = folder / f"{title}.txt"
    env = dict(os.environ, DISPLAY=display, LC_ALL="C.UTF-8")
    argv = ["xterm", "-u8", "-T", title, "-e", "sh", "-c", f"exec cat > '{out}'"]
    return _open(display, title, argv, out, env)


def clipboard_text(display: str, selection: str = "clipboard") -> str:
    """The X selection as another process sees it ("" when nobody owns it)."""
    result = subprocess.run(["xclip", "-selection", selection, "-o"], env=dict(os.environ, DISPLAY=display),
                            capture_output=True, timeout=10, check=False)
    return result.stdout.decode("utf-8")


def set_clipboard_text(display: str, text: str, selection: str = "clipboard") -> subprocess.Popen[bytes]:
    """Another app owns the selection with `text` (xclip stays alive to serve it: stop it after)."""
    process = subprocess.Popen(["xclip", "-selection", selection, "-i", "-quiet"], stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env=dict(os.environ, DISPLAY=display))
    assert process.stdin is not None
    process.stdin.write(text.encode("utf-8"))
    process.stdin.close()
    wait_until(lambda: clipboard_text(display, selection) == text, f"{selection} to hold {text!r}")
    return process

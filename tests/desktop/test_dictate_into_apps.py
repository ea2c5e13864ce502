"""Dictating into another app, end to end, under Xvfb with the PulseAudio virtual microphone.

The real app (`python -m app`, the real model, microphone capture through PortAudio and
PulseAudio) runs in its own process with a global hotkey. Another app has the focus (a Qt line
edit, or an xterm running `cat`); pressing the hotkey with xdotool starts dictation, an espeak
clip is played into the virtual microphone, and its committed text must arrive in the focused
window, typed or pasted. After pasting, the clipboard holds what it held before.
"""

from __future__ import annotations

import os
import subprocess
import sys
import wave
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from earshot_testing import DATA_DIR, espeak_clips
from output_desktop import (
    ROOT,
    Receiver,
    clipboard_text,
    focused_window,
    pulseaudio,
    set_clipboard_text,
    settled_text,
    wait_until,
    xdotool,
)

from app.engine.wer import word_error_rate

LEAD_IN_S = 2.5  # silence first: the capture stream delivers its first audio 1-2 s after it starts
CLIP = next(c for c in espeak_clips() if c["file"] == "espeak_meeting.wav")
MAX_WER = 25.0  # percent: tiny.en through PulseAudio's resampler is near perfect on this clip


class EarshotApp:
    """The app in its own process; `command()` talks to it like `earshot status` does."""

    def __init__(self, env: dict[str, str], log: Path, options: list[str], hotkey: str) -> None:
        self.env = env
        self.log = log
        self.hotkey = hotkey
        with log.open("wb") as output:  # the child keeps its own copy of the descriptor
            self.process = subprocess.Popen([sys.executable, "-m", "app", *options, "--hotkey", hotkey], env=env,
                                            stdout=output, stderr=subprocess.STDOUT)
        wait_until(lambda: self.status() != "not running", f"Earshot to start (log: {log})", timeout=60)

    def command(self, name: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "app", name], env=self.env, capture_output=True,
                              text=True, timeout=60, check=False)

    def status(self) -> str:
        assert self.process.poll() is None, f"Earshot exited: {self.log.read_text(errors='replace')[-2000:]}"
        result = self.command("status")
        return result.stdout.strip() if result.returncode == 0 else "not running"

    def wait_state(self, state: str) -> None:
        wait_until(lambda: self.status() == state, f"the state {state!r} (now {self.status()!r})", timeout=90)

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="module")
def sound(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    with pulseaudio(tmp_path_factory.mktemp("pulse")) as env:
        yield env


@pytest.fixture(scope="module")
def speech(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The clip with a lead-in of silence, as a WAV for paplay."""
    with wave.open(str(DATA_DIR / CLIP["file"]), "rb") as source:
        rate, pcm = source.getframerate(), source.readframes(source.getnframes())
    path = tmp_path_factory.mktemp("clip") / "speech.wav"
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(np.zeros(int(LEAD_IN_S * rate), np.int16).tobytes() + pcm)
    return path


def launch(x_display: str, sound: dict[str, str], folder: Path, options: list[str], hotkey: str) -> EarshotApp:
    """Each app its own hotkey: two apps cannot grab the same keys."""
    env = dict(os.environ, **sound, DISPLAY=x_display, QT_QPA_PLATFORM="xcb", PYTHONPATH=str(ROOT),
               EARSHOT_CONTROL_SOCKET=str(folder / "control.sock"))
    return EarshotApp(env, folder / "earshot.log", options, hotkey)


@pytest.fixture(scope="module")
def typing_app(
    x_display: str, sound: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[EarshotApp]:
    app = launch(x_display, sound, tmp_path_factory.mktemp("typing"), ["--output", "type"], "ctrl+alt+d")
    yield app
    app.close()


@pytest.fixture(scope="module")
def pasting_app(
    x_display: str, sound: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[EarshotApp]:
    options = ["--output", "paste", "--hotkey-mode", "hold"]
    app = launch(x_display, sound, tmp_path_factory.mktemp("pasting"), options, "super+shift+p")
    yield app
    app.close()


def play(app: EarshotApp, clip: Path) -> None:
    subprocess.run(["paplay", "--device=vsink", str(clip)], env=app.env, check=True, timeout=60)


def dictate_with_toggle(app: EarshotApp, receiver: Receiver, clip: Path) -> None:
    receiver.focus()
    xdotool(receiver.display, "key", app.hotkey)
    app.wait_state("listening")
    assert xdotool(receiver.display, "search", "--onlyvisible", "--name", "^Earshot indicator$")
    assert focused_window(receiver.display) == receiver.window  # the indicator took no focus
    play(app, clip)
    xdotool(receiver.display, "key", app.hotkey)
    app.wait_state("idle")


def dictate_holding_the_hotkey(app: EarshotApp, receiver: Receiver, clip: Path) -> None:
    receiver.focus()
    xdotool(receiver.display, "keydown", app.hotkey)
    try:
        app.wait_state("listening")
        play(app, clip)
    finally:
        xdotool(receiver.display, "keyup", app.hotkey)
    app.wait_state("idle")


def assert_dictated(text: str) -> None:
    log = Path(os.environ["EARSHOT_LOG_DIR"]) / "earshot.log"  # every app of the session logs there
    tail = log.read_text(errors="replace")[-3000:] if log.is_file() else "(no log)"
    assert text.strip(), f"nothing arrived; the log ends:\n{tail}"
    wer = word_error_rate([CLIP["text"]], [text])
    assert wer <= MAX_WER, f"{text!r} is not {CLIP['text']!r}; the log ends:\n{tail}"


def test_hotkey_dictation_is_typed_into_a_qt_window(
    typing_app: EarshotApp, qt_window: Receiver, speech: Path
) -> None:
    dictate_with_toggle(typing_app, qt_window, speech)
    assert_dictated(settled_text(qt_window.read))


def test_hotkey_dictation_is_typed_into_an_xterm(typing_app: EarshotApp, xterm: Receiver, speech: Path) -> None:
    dictate_with_toggle(typing_app, xterm, speech)
    xdotool(xterm.display, "key", "Return")  # `cat` writes the line out
    assert_dictated(xterm.wait_for_text("\n"))


def test_held_hotkey_dictation_is_pasted_into_a_qt_window_and_the_clipboard_restored(
    pasting_app: EarshotApp, qt_window: Receiver, speech: Path, x_display: str
) -> None:
    owner = set_clipboard_text(x_display, "copied before dictating ✓")
    try:
        dictate_holding_the_hotkey(pasting_app, qt_window, speech)
        assert_dictated(settled_text(qt_window.read))
        wait_until(lambda: clipboard_text(x_display) == "copied before dictating ✓", "the clipboard to be restored")
    finally:
        owner.kill()
        owner.wait()


def test_held_hotkey_dictation_is_pasted_into_an_xterm_and_both_selections_restored(
    pasting_app: EarshotApp, xterm: Receiver, speech: Path, x_display: str
) -> None:
    owners = [set_clipboard_text(x_display, "clipboard before"),
              set_clipboard_text(x_display, "primary before", "primary")]
    try:
        dictate_holding_the_hotkey(pasting_app, xterm, speech)
        wait_until(lambda: clipboard_text(x_display, "primary") == "primary before", "PRIMARY to be restored")
        xdotool(xterm.display, "key", "Return")
        assert_dictated(xterm.wait_for_text("\n"))
        assert clipboard_text(x_display) == "clipboard before"
    finally:
        for owner in owners:
            owner.kill()
            owner.wait()


def test_earshot_toggle_from_another_process_starts_and_stops_the_running_app(typing_app: EarshotApp) -> None:
    started = typing_app.command("toggle")
    assert started.returncode == 0, started.stderr
    typing_app.wait_state("listening")
    stopped = typing_app.command("toggle")
    assert stopped.returncode == 0, stopped.stderr
    typing_app.wait_state("idle")
    assert typing_app.command("start").returncode == 0
    typing_app.wait_state("listening")
    assert typing_app.command("stop").returncode == 0
    typing_app.wait_state("idle")


def test_control_commands_say_when_no_earshot_is_running(tmp_path: Path) -> None:
    env = dict(os.environ, EARSHOT_CONTROL_SOCKET=str(tmp_path / "nobody.sock"))
    result = subprocess.run([sys.executable, "-m", "app", "toggle"], env=env, capture_output=True, text=True,
                            timeout=60, check=False)
    assert result.returncode == 1
    assert "Earshot is not running" in result.stderr


def test_a_second_earshot_hands_over_to_the_running_one(typing_app: EarshotApp) -> None:
    second = subprocess.run([sys.executable, "-m", "app", "--output", "window"], env=typing_app.env,
                            capture_output=True, text=True, timeout=60, check=False)
    assert second.returncode == 0, second.stderr
    assert typing_app.status() == "idle"  # the first one still runs and answers

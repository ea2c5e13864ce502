"""The real capture path: PulseAudio virtual microphone -> ALSA pulse plugin -> PortAudio ->
sounddevice -> ring buffer -> worker -> text. And what happens with no audio device at all.

The fixture starts a private PulseAudio server (own XDG_RUNTIME_DIR, a null sink whose monitor is
the default source) and stops it afterwards, so it runs on a fresh CI machine as root without a
session bus. Needs the Debian packages pulseaudio, pulseaudio-utils, libasound2-plugins and
libportaudio2; the tests are skipped (with that reason) only where `pulseaudio` is not installed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from dictation_helpers import drain
from earshot_testing import DATA_DIR, REPO_ROOT, espeak_clips, private_pulseaudio

from app.audio.capture import (
    AudioDeviceError,
    CaptureOptions,
    MicrophoneCapture,
    default_input_device,
    find_input_device,
    list_input_devices,
    rescan_devices,
)
from app.audio.microphones import list_microphones
from app.dictation.events import EventType, QueueSink
from app.dictation.live_worker import DictationOptions, DictationWorker
from app.engine.wer import word_error_rate

needs_pulse = pytest.mark.skipif(shutil.which("pulseaudio") is None or shutil.which("paplay") is None,
                                 reason="pulseaudio / pulseaudio-utils are not installed")


def _pulse_env(runtime: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PULSE_SERVER", "PULSE_RUNTIME_PATH")}
    env["XDG_RUNTIME_DIR"] = str(runtime)
    return env


@pytest.fixture
def pulse_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """A private PulseAudio with a null sink `vsink`; its monitor is the default source."""
    runtime = tmp_path / "xdg"
    runtime.mkdir(mode=0o700)
    with private_pulseaudio(runtime, tmp_path / "pulse.log") as (env, proc):
        monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
        monkeypatch.delenv("PULSE_SERVER", raising=False)
        rescan_devices()  # PortAudio lists devices once; make it see this server
        env["EARSHOT_TEST_PULSE_PID"] = str(proc.pid)
        try:
            yield env
        finally:
            rescan_devices()


def _wait_for_first_callback(capture: MicrophoneCapture, timeout_s: float = 15.0) -> None:
    deadline = time.monotonic() + timeout_s
    while capture.callbacks == 0:
        assert time.monotonic() < deadline, "no audio callback from the virtual microphone"
        time.sleep(0.05)


@needs_pulse
def test_devices_are_listed_and_found_by_name(pulse_server: dict[str, str]) -> None:
    names = [d.name for d in list_input_devices()]
    assert "pulse" in names
    assert default_input_device().name in names
    assert find_input_device("PULSE").name == "pulse"
    with pytest.raises(AudioDeviceError, match="No input device matches 'no such mic'"):
        find_input_device("no such mic")


def _dictate_clip(pulse_env: dict[str, str], engine, clip_file: str):  # type: ignore[no-untyped-def]
    """Start a worker on the virtual mic, play `clip_file` into it, wait for its final text."""
    capture = MicrophoneCapture(CaptureOptions(device="pulse"))
    sink = QueueSink()
    worker = DictationWorker(capture, engine, sink, DictationOptions(realtime=True))
    worker.start()
    events: list = []  # type: ignore[type-arg]
    try:
        _wait_for_first_callback(capture)
        subprocess.run(["paplay", "--device=vsink", str(DATA_DIR / clip_file)],
                       env=pulse_env, check=True, timeout=60)
        deadline = time.monotonic() + 60  # the machine may be busy: wait for the final, not a time
        while not any(e.type is EventType.FINAL and e.text for e in events):
            events += drain(sink)
            assert time.monotonic() < deadline, "no final text after the clip was played"
            time.sleep(0.2)
    except BaseException:
        worker.cancel()
        raise
    return capture, worker, sink, events


@needs_pulse
def test_speech_played_into_the_virtual_microphone_is_dictated(pulse_server, engine) -> None:  # type: ignore[no-untyped-def]
    clip = next(c for c in espeak_clips() if c["file"] == "espeak_meeting.wav")
    capture, worker, sink, events = _dictate_clip(pulse_server, engine, clip["file"])
    worker.stop()
    assert worker.join(120)
    events += drain(sink)
    text = "".join(e.text for e in events if e.type in (EventType.COMMIT, EventType.FINAL))
    assert word_error_rate([clip["text"]], [text]) <= 20.0, text
    assert not [e for e in events if e.type is EventType.ERROR]
    assert capture.sample_rate == 16000 and capture.overflows == 0
    summary = events[-1].summary
    assert summary is not None and summary.audio_s > 5.0


@needs_pulse
def test_microphone_lost_mid_dictation_reports_and_keeps_the_text(pulse_server, engine) -> None:  # type: ignore[no-untyped-def]
    """The sound server dies while dictating: an ERROR event, then the session ends normally
    with everything already said committed."""
    clip = next(c for c in espeak_clips() if c["file"] == "espeak_meeting.wav")
    _capture, worker, sink, events = _dictate_clip(pulse_server, engine, clip["file"])
    os.kill(int(pulse_server["EARSHOT_TEST_PULSE_PID"]), 9)  # like pulling the plug
    assert worker.join(60), "the worker did not notice the lost microphone"
    events += drain(sink)
    errors = [e for e in events if e.type is EventType.ERROR]
    assert len(errors) == 1 and "stopped delivering audio" in errors[0].text
    assert events[-1].type is EventType.SUMMARY
    text = "".join(e.text for e in events if e.type in (EventType.COMMIT, EventType.FINAL))
    assert word_error_rate([clip["text"]], [text]) <= 30.0, text
    assert worker.transcript == text


def _no_server_env(tmp_path: Path) -> dict[str, str]:
    runtime = tmp_path / "empty-xdg"
    runtime.mkdir(mode=0o700, exist_ok=True)
    env = _pulse_env(runtime)
    env["PULSE_SERVER"] = f"unix:{runtime}/no-such-socket"
    return env


def test_no_audio_device_gives_a_clear_error_not_a_crash(tmp_path: Path) -> None:
    """No sound server and no sound card: `earshot dictate` says so and exits 2."""
    env = _no_server_env(tmp_path)
    env["PYTHONPATH"] = str(REPO_ROOT)
    done = subprocess.run([sys.executable, "-m", "app", "dictate"], env=env, cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("earshot dictate: ")
    assert "No microphone found" in last or "PortAudio library is not installed" in last


def test_no_audio_device_in_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in _no_server_env(tmp_path).items():
        monkeypatch.setenv(key, value)
    rescan_devices()
    try:
        assert list_input_devices() == []
        with pytest.raises(AudioDeviceError, match="No microphone found"):
            MicrophoneCapture()
    finally:
        monkeypatch.undo()
        rescan_devices()


def _recording_from(env: dict[str, str]) -> list[str]:
    """The names of the sources that something records from now, as the sound server says."""
    def listing(what: str) -> list[dict]:  # type: ignore[type-arg]
        done = subprocess.run(["pactl", "-f", "json", "list", what], env=env, check=True,
                              capture_output=True, text=True)
        return json.loads(done.stdout)  # type: ignore[no-any-return]
    names = {s["index"]: s["name"] for s in listing("sources")}
    return [names[o["source"]] for o in listing("source-outputs")]


@needs_pulse
def test_a_microphone_chosen_by_its_name_is_the_one_recorded(pulse_server: dict[str, str]) -> None:
    """Two microphones: the one the menu names "Jabra Evolve 20 Mono" is opened, not the default,
    and PortAudio is not re-enumerated while it records (that would end the stream)."""
    subprocess.run(["pactl", "load-module", "module-null-source", "source_name=usb_headset",
                    "description='Jabra Evolve 20 Mono'"], env=pulse_server, check=True)
    assert [m.name for m in list_microphones()] == ["Monitor of Null Output", "Jabra Evolve 20 Mono"]
    capture = MicrophoneCapture(CaptureOptions(device="Jabra Evolve 20 Mono"))
    capture.start()
    try:
        _wait_for_first_callback(capture)
        assert _recording_from(pulse_server) == ["usb_headset"]
        assert capture.device.shown_name == "Jabra Evolve 20 Mono"
        assert rescan_devices() is False  # refused while recording
        assert list_microphones(rescan=True)  # a look at the list does not end the recording
        callbacks = capture.callbacks
        time.sleep(0.5)
        assert capture.callbacks > callbacks and not capture.lost
    finally:
        capture.stop()
    assert rescan_devices() is True
    assert os.environ.get("PULSE_SOURCE") is None  # the choice is not left behind for the default

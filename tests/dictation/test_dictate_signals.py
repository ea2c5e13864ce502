"""`earshot dictate` stopped by a signal as a service manager (SIGTERM), Ctrl-C (SIGINT) or a
closed terminal (SIGHUP) stops it: a real process listening to a private PulseAudio's virtual
microphone while `paplay` speaks into it, the real tiny.en. The session ends as Ctrl-C ends it:
the audio heard so far is transcribed and printed, then (its text out) its journal is deleted;
nothing of the process is left running. kill -9: test_journal_kill9.py."""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from earshot_testing import (
    DATA_DIR,
    REPO_ROOT,
    espeak_clips,
    private_pulseaudio,
    process_tree,
    read_wav,
    still_running,
    write_wav,
)

from app.dictation.audio_journal import find_leftovers

SPEECH = ("espeak_weather.wav", "espeak_meeting.wav", "espeak_morning.wav")


def _speech(path: Path) -> Path:
    pause = np.zeros(8000, dtype=np.float32)
    write_wav(path, np.concatenate([part for n in SPEECH for part in (read_wav(DATA_DIR / n), pause)]))
    return path


@pytest.mark.skipif(shutil.which("pulseaudio") is None or shutil.which("paplay") is None,
                    reason="pulseaudio / pulseaudio-utils are not installed")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=lambda s: signal.Signals(s).name)
def test_a_signal_ends_earshot_dictate_with_the_text_heard_so_far(tmp_path: Path, signum: int) -> None:
    runtime = tmp_path / "xdg"
    runtime.mkdir(mode=0o700)
    with private_pulseaudio(runtime, tmp_path / "pulse.log") as (pulse_env, _server):
        env = {**pulse_env, "PYTHONPATH": str(REPO_ROOT), "EARSHOT_DATA_DIR": str(tmp_path / "data")}
        dictate = subprocess.Popen([sys.executable, "-m", "app", "dictate", "--device", "pulse", "--json"], env=env,
                                   cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        speech = _speech(tmp_path / "s.wav")  # over and over: the capture starts once the model is loaded
        player = subprocess.Popen(["sh", "-c", f"while :; do paplay --device=vsink {speech}; done"], env=pulse_env)
        try:
            assert dictate.stdout is not None
            before = []
            deadline = time.monotonic() + 180
            while not any(e["type"] == "commit" and e["text"].strip() for e in before):
                line = dictate.stdout.readline()
                assert line and time.monotonic() < deadline, dictate.communicate()
                before.append(json.loads(line))
            tree = process_tree(dictate.pid)
            dictate.send_signal(signum)
            rest, stderr = dictate.communicate(timeout=120)
        finally:
            if dictate.poll() is None:
                dictate.kill()
                dictate.communicate()
            player.kill()
            player.wait(10)
    events = before + [json.loads(line) for line in rest.splitlines()]
    assert dictate.returncode == 0 and "Traceback" not in stderr, stderr
    assert events[-1]["type"] == "summary", events[-1]
    heard = re.findall(r"[a-z']+", " ".join(e["text"] for e in events if e["type"] in ("commit", "final")).lower())
    # the capture may start mid-sentence ("wind from the west."): the words are the clips' words
    said = {w for c in espeak_clips() if c["file"] in SPEECH for w in re.findall(r"[a-z']+", c["text"].lower())}
    assert len(heard) >= 3 and sum(w in said for w in heard) >= 0.75 * len(heard), heard
    assert still_running(tree) == []
    assert find_leftovers(tmp_path / "data" / "recovery") == []  # its text is out: nothing is kept
    assert not list((tmp_path / "data" / "recovery").glob("session-*"))

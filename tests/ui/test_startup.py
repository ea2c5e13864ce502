"""Start-up as a user meets it: `earshot` (`app.cli.main`, the real composition root) in a fresh
process, watched from its first event-loop turn (the window was just shown) to the first words
of a dictation asked for while the model was still loading.

How fast the window comes is measured in bench/startup.py; this test checks what makes it come
early and what the user sees meanwhile: the window is on screen saying the model is loading
before the inference stack (onnxruntime, NumPy, the tokenizer) is even imported, and a dictation
started during the load (the hotkey or the tray: Record itself is off then) is not lost.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from gui_helpers import CLIPS, DATA, normalized

REPO_ROOT = Path(__file__).resolve().parents[2]
CLIP = "espeak_morning.wav"  # "Good morning everyone. Today we will review the budget ..."

# Runs in the child process: QApplication first (create_app takes the existing one), a probe
# queued for the first event-loop turn, then the real `earshot` window with a replayed clip.
DRIVER = """
import json, sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from app.cli import main
from app.ui.main_window import MainWindow

qapp = QApplication([sys.argv[0]])
seen = {}

def main_window():
    return next(w for w in qapp.topLevelWidgets() if isinstance(w, MainWindow))

def first_turn():
    window = main_window()
    bar = window.record_bar
    seen["first"] = {"visible": window.isVisible(), "title": bar.title.text(), "record_enabled": bar.button.isEnabled(),
                     "imported": sorted(m for m in ("onnxruntime", "numpy", "tokenizers") if m in sys.modules)}
    window.controller.dictation.committed.connect(on_commit)
    window.controller.dictation.toggle()  # the hotkey / the tray's Start dictation, while the model loads
    seen["after_press"] = bar.title.text()

def on_commit(text):
    window = main_window()
    seen["committed"] = seen.get("committed", "") + text
    if len(seen["committed"].split()) < 2:  # "Good" can be committed alone: wait for the next words
        return
    seen["title_then"] = window.record_bar.title.text()
    seen["model_label"] = window.status_line.model_label.text()
    window.controller.dictation.cancel()
    print(json.dumps(seen), flush=True)
    qapp.exit(0)

QTimer.singleShot(0, first_turn)
sys.exit(main(["--replay", sys.argv[1], "--output", "window", "--hotkey", ""]))
"""


def test_the_window_says_loading_before_the_model_stack_loads_and_a_dictation_asked_meanwhile_runs(
        tmp_path: Path) -> None:
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_RUNTIME_DIR": str(runtime),
           "EARSHOT_LOG_DIR": str(tmp_path / "log"), "PYTHONPATH": str(REPO_ROOT)}
    env.pop("EARSHOT_CONTROL_SOCKET", None)
    done = subprocess.run([sys.executable, "-c", DRIVER, str(DATA / CLIP)], cwd=REPO_ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])

    first = seen["first"]
    assert first["visible"]
    assert first["title"] == "Loading model…"  # not "Ready": Record waits for the model
    assert not first["record_enabled"]
    assert first["imported"] == []  # the window did not wait for the inference stack
    assert seen["after_press"] == "Loading model…"  # the press is held, not dropped

    # Once loaded, the dictation asked for during the load runs and writes the clip's words.
    first_words = normalized(CLIPS[CLIP]["text"]).split()[:2]
    assert normalized(seen["committed"]).split()[:2] == first_words
    assert seen["title_then"] in ("Listening", "Hearing speech")
    assert seen["model_label"].startswith("Model tiny.en")
    log = (tmp_path / "log" / "earshot.log").read_text(encoding="utf-8")
    assert "dictation ready: tiny.en" in log  # what bench/startup.py times

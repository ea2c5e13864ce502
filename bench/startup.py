"""Time from launching Earshot to its first window on screen (target < 1.5 s on the 2-core box).

Starts a fresh interpreter per round (imports included, as a user's launch pays them), builds
the window exactly as `earshot` does (`app.ui.main.create_app`), and reports when the window is
first exposed. The model then loads in the background and is not part of this figure.
Printed, not asserted. Uses $DISPLAY when set (e.g. Xvfb), else Qt's offscreen platform.

    python bench/startup.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHILD = """
import sys, time
from PySide6.QtCore import QEvent, QObject, QTimer
from app.ui.main import create_app

class FirstExpose(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Expose and obj.isExposed():
            print("EXPOSED", flush=True)
            QTimer.singleShot(0, app.quit)
        return False

app, window, controller = create_app([])
handle = window.windowHandle()
watcher = FirstExpose()
handle.installEventFilter(watcher)
QTimer.singleShot(10_000, app.quit)
app.exec()
"""


def one_launch(env: dict[str, str]) -> float:
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.strip() == "EXPOSED":
            elapsed = time.perf_counter() - started
            proc.wait(timeout=30)
            return elapsed
    proc.wait(timeout=30)
    raise RuntimeError("the window was never shown")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, XDG_CONFIG_HOME=f"{home}/config", XDG_DATA_HOME=f"{home}/data")
        if not env.get("DISPLAY"):
            env.setdefault("QT_QPA_PLATFORM", "offscreen")
        platform = env.get("QT_QPA_PLATFORM") or f"xcb on {env['DISPLAY']}"
        one_launch(env)  # warm the OS file cache once, like any second launch
        times = [one_launch(env) for _ in range(args.rounds)]
    print(f"time to first window ({platform}, {args.rounds} launches after one warm-up):")
    print(f"  median {statistics.median(times):.3f} s   min {min(times):.3f} s   max {max(times):.3f} s")
    print(f"  target < 1.5 s: {'met' if statistics.median(times) < 1.5 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Start-up of a built Earshot (the installed .deb by default) under Xvfb: launch to a visible
main window, and launch to dictation ready (the model loaded), as a ratio to a baseline build.

Each launch is a first start: empty config, data, cache and log folders. `--cold` evicts the
program's files from the page cache before every launch (posix_fadvise DONTNEED on each file of
its folder; no root, nothing else touched), as after a reboot; otherwise one warm-up launch fills
the cache and the figures are warm starts. The window counts as visible when X reports it mapped
(`xdotool search --onlyvisible`); dictation counts as ready at the diagnostics log's
"dictation ready" line (written on the GUI thread once Record works), or, for older builds that do
not write it, at the "model ... loaded" line of the loading thread. Rounds
alternate between the two programs, so a shared CPU slows both alike. Printed, not asserted
(targets: window <= 1.0 s, ready <= 2.0 s).

    python bench/startup.py --baseline /tmp/main-dist/earshot/earshot [--exe /opt/earshot/earshot] [--rounds 5] [--cold]
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from earshot_testing import xvfb

POLL_S = 0.01
TIMEOUT_S = 60.0


def evict_from_page_cache(folder: Path) -> None:
    """Drop the cached pages of every file under `folder` (a cold start reads them from disk)."""
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():
            fd = os.open(path, os.O_RDONLY)
            try:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)


def _window_visible(display: str) -> bool:
    found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^Earshot$"],
                           env={**os.environ, "DISPLAY": display}, capture_output=True, text=True)
    return bool(found.stdout.strip())


READY_GRACE_S = 1.0
"""How long after "model ... loaded" to wait for "dictation ready" (older builds never write it)."""


def _log_text(log: Path) -> str:
    return log.read_text(encoding="utf-8", errors="replace") if log.is_file() else ""


def one_launch(exe: Path, display: str, cold: bool) -> tuple[float, float]:
    """Seconds from launch to (visible window, dictation ready)."""
    if cold:
        evict_from_page_cache(exe.resolve().parent)
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "DISPLAY": display, "HOME": home, "EARSHOT_LOG_DIR": f"{home}/log",
               **{var: f"{home}/{var.lower()}" for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME",
                                                          "XDG_STATE_HOME", "EARSHOT_CACHE_DIR", "EARSHOT_DATA_DIR")}}
        env.pop("QT_QPA_PLATFORM", None)
        log = Path(home) / "log" / "earshot.log"
        started = time.perf_counter()
        proc = subprocess.Popen([str(exe)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        window = ready = loaded = None
        try:
            while (window is None or ready is None) and time.perf_counter() - started < TIMEOUT_S:
                if proc.poll() is not None:
                    raise RuntimeError(f"{exe} exited with {proc.returncode} during start-up")
                now = time.perf_counter() - started
                if window is None and _window_visible(display):
                    window = now
                text = _log_text(log)
                if loaded is None and " loaded: " in text:
                    loaded = now
                if ready is None and " dictation ready: " in text:
                    ready = now
                elif ready is None and loaded is not None and now - loaded > READY_GRACE_S:
                    ready = loaded  # an older build, without the "dictation ready" line
                time.sleep(POLL_S)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    if window is None or ready is None:
        raise RuntimeError(f"{exe}: no window or no model within {TIMEOUT_S:.0f} s")
    return window, max(window, ready)


def _line(name: str, values: list[float]) -> str:
    return f"{name:<28} median {statistics.median(values):6.3f} s  min {min(values):6.3f}  max {max(values):6.3f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exe", type=Path, default=Path("/opt/earshot/earshot"), help="the build to measure")
    parser.add_argument("--baseline", type=Path, required=True, help="the build to compare with (main's)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cold", action="store_true", help="evict the program's files before each launch")
    args = parser.parse_args()
    runs: dict[str, list[tuple[float, float]]] = {"new": [], "baseline": []}
    with xvfb("xdotool") as display:
        if not args.cold:
            for exe in (args.exe, args.baseline):
                one_launch(exe, display, cold=False)
        for _ in range(args.rounds):
            runs["new"].append(one_launch(args.exe, display, args.cold))
            runs["baseline"].append(one_launch(args.baseline, display, args.cold))
    kind = "cold (page cache evicted)" if args.cold else "warm"
    print(f"start-up under Xvfb, {kind}, {args.rounds} rounds, new = {args.exe}, baseline = {args.baseline}")
    for which, label in ((0, "visible window"), (1, "dictation ready")):
        new = [r[which] for r in runs["new"]]
        base = [r[which] for r in runs["baseline"]]
        print(_line(f"{label} (new)", new))
        print(_line(f"{label} (baseline)", base))
        print(f"{label:<28} ratio new/baseline {statistics.median(new) / statistics.median(base):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

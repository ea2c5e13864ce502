"""onnxruntime's telemetry stays off: no network socket, no device id under ~/.cache/Microsoft.

onnxruntime >= 1.29 (1DS telemetry on Linux and macOS) resolves mobile.events.data.microsoft.com
about 10 s after it starts and writes `~/.cache/Microsoft/DeveloperTools/.onnxruntime/deviceid`
as soon as it is imported. It suppresses itself when it sees a CI environment (CI, GITHUB_ACTIONS,
TF_BUILD, ...), so the child runs with a minimal environment, as a user's desktop session would.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from earshot_testing import DATA_DIR, REPO_ROOT

# The child transcribes through the real CLI, then stays alive past onnxruntime's first upload
# (about 10 s after start), so a telemetry uploader would have opened its socket by the end.
_CHILD = """
import sys, time
from app.cli import main
status = main(["transcribe", sys.argv[1]])
time.sleep(15)
sys.exit(status)
"""
_KEEP = ("PATH", "LANG", "LC_ALL", "EARSHOT_DATA_DIR", "EARSHOT_CACHE_DIR", "EARSHOT_PREBUILT_DIR")


def _desktop_env(home: Path) -> dict[str, str]:
    """What a desktop session has, without CI markers and without the test session's own switch."""
    env = {name: os.environ[name] for name in _KEEP if name in os.environ}
    env |= {"HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache"), "PYTHONPATH": str(REPO_ROOT)}
    return env


def test_transcription_opens_no_network_socket_and_writes_no_telemetry_folder(tmp_path: Path) -> None:
    strace = shutil.which("strace")
    assert strace, "strace is needed to watch the process's sockets (apt-get install strace)"
    trace = tmp_path / "strace.txt"
    home = tmp_path / "home"
    home.mkdir()
    result = subprocess.run(
        [strace, "-f", "-qq", "-e", "trace=socket,connect", "-o", str(trace),
         sys.executable, "-c", _CHILD, str(DATA_DIR / "espeak_meeting.wav")],
        cwd=REPO_ROOT, env=_desktop_env(home), capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "thursday afternoon" in result.stdout.lower()
    network = [line for line in trace.read_text().splitlines() if re.search(r"AF_INET6?\b|htons\(53\)", line)]
    assert network == [], "the process opened network sockets:\n" + "\n".join(network[:10])
    left = sorted(str(p.relative_to(home)) for p in home.rglob("*"))
    assert not any("Microsoft" in p for p in left), left

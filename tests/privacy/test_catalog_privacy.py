"""The model catalog asks nobody: Settings > Download models open (a model selected, the page
shown for seconds) opens no network socket. Watched with strace in a desktop-like environment."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from earshot_testing import REPO_ROOT

_CHILD = """
import sys, time
from pathlib import Path
from PySide6.QtWidgets import QApplication
app = QApplication([])
from app.composition import build_parts
from app.controller.app_controller import AppController
from app.ui.settings_dialog import SettingsDialog
folder = Path(sys.argv[1])
controller = AppController(build_parts(folder / "settings.toml", folder / "history.sqlite3"))
dialog = SettingsDialog(controller)
dialog.show()
dialog.models_page.table.selectRow(2)
end = time.monotonic() + 3
while time.monotonic() < end:
    app.processEvents()
    time.sleep(0.05)
print(dialog.models_page.table.rowCount(), dialog.models_page.status_of("base"))
"""
_KEEP = ("PATH", "LANG", "LC_ALL", "EARSHOT_DATA_DIR", "EARSHOT_CACHE_DIR", "EARSHOT_PREBUILT_DIR")


def test_the_catalog_page_opens_no_network_socket(tmp_path: Path) -> None:
    strace = shutil.which("strace")
    assert strace, "strace is needed to watch the process's sockets (apt-get install strace)"
    trace, home = tmp_path / "strace.txt", tmp_path / "home"
    home.mkdir()
    env = {name: os.environ[name] for name in _KEEP if name in os.environ}
    env |= {"HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache"), "PYTHONPATH": str(REPO_ROOT),
            "QT_QPA_PLATFORM": "offscreen", "XDG_RUNTIME_DIR": str(tmp_path),
            "EARSHOT_DATA_DIR": str(tmp_path / "data")}  # its own: other tests install models in the session's
    result = subprocess.run(
        [strace, "-f", "-qq", "-e", "trace=socket,connect", "-o", str(trace), sys.executable, "-c", _CHILD,
         str(tmp_path)], cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["11", "Not", "installed"]
    network = [line for line in trace.read_text().splitlines() if re.search(r"AF_INET6?\b|htons\(53\)", line)]
    assert network == [], "the process opened network sockets:\n" + "\n".join(network[:10])

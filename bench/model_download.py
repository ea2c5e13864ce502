"""Download + install + conversion time of the multilingual base from the local test hub (no internet).

Run: PYTHONPATH=$PWD python bench/model_download.py fp32 int8
Prints the CLI's own line per precision: MB, total seconds and each phase's seconds. The hub is
tests/models/hub_server.py on 127.0.0.1 (so "downloading" measures the client: Range GETs + sha256).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "models"))
from hub_server import HostedFile, HubServer  # noqa: E402


def _joined_base(target: Path) -> dict[str, HostedFile]:
    """The base model joined from its two PyPI parts into `target`, as tests/models serves it."""
    spec = importlib.util.spec_from_file_location("models_conftest", ROOT / "tests" / "models" / "conftest.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    joined: dict[str, HostedFile] = module._joined_base(target)
    return joined


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="earshot-bench-download-"))
    server = HubServer({"Systran/faster-whisper-base": _joined_base(tmp / "base")}).start()
    try:
        for precision in sys.argv[1:] or ["int8"]:
            env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_ENDPOINT": server.endpoint,
                   "HF_HOME": str(tmp / "hf"), "EARSHOT_DATA_DIR": str(tmp / f"data-{precision}"),
                   "EARSHOT_CACHE_DIR": str(tmp / f"cache-{precision}")}
            command = [sys.executable, "-m", "app", "models", "download", "base", "--precision", precision]
            result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
            print(precision, result.stdout.strip() if result.returncode == 0 else result.stderr.strip()[-300:])
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()

"""The single-instance channel: commands from another process reach the server; a socket left
behind by a crash is taken over; a second instance is refused."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from pytestqt.qtbot import QtBot

from app.controller.desktop.control_server import ControlServer

ROOT = Path(__file__).resolve().parents[2]


def run_cli(name: Path, *args: str) -> subprocess.Popen[str]:
    env = dict(os.environ, EARSHOT_CONTROL_SOCKET=str(name), PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-m", "app", *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def finish(qtbot: QtBot, process: subprocess.Popen[str]) -> tuple[int, str, str]:
    """Keep the event loop turning (the server lives in this process) until the client exits."""
    qtbot.waitUntil(lambda: process.poll() is not None, timeout=60000)
    out, err = process.communicate()
    return process.returncode, out.strip(), err.strip()


def test_a_command_from_another_process_is_handled_and_answered(qtbot: QtBot, tmp_path: Path) -> None:
    received: list[str] = []
    server = ControlServer(lambda command: received.append(command) or "listening", str(tmp_path / "c.sock"))
    assert server.listen()
    try:
        assert finish(qtbot, run_cli(tmp_path / "c.sock", "toggle")) == (0, "listening", "")
        assert received == ["toggle"]
    finally:
        server.close()


def test_a_failing_command_is_reported_to_the_caller(qtbot: QtBot, tmp_path: Path) -> None:
    def handler(command: str) -> str:
        raise RuntimeError("the model is not loaded")

    server = ControlServer(handler, str(tmp_path / "c.sock"))
    assert server.listen()
    try:
        code, _out, err = finish(qtbot, run_cli(tmp_path / "c.sock", "start"))
        assert code == 1 and "the model is not loaded" in err
    finally:
        server.close()


def test_a_socket_left_by_a_crash_is_taken_over(tmp_path: Path) -> None:
    path = tmp_path / "c.sock"
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(str(path))  # bound and closed without unlinking: what a killed app leaves
    stale.close()
    server = ControlServer(lambda command: "idle", str(path))
    assert server.listen()
    server.close()


def test_a_second_instance_is_refused_while_the_first_answers(qtbot: QtBot, tmp_path: Path) -> None:
    name = str(tmp_path / "c.sock")
    first = ControlServer(lambda command: "idle", name)
    assert first.listen()
    second = subprocess.Popen(
        [sys.executable, "-c", "import sys; from PySide6.QtCore import QCoreApplication; "
         "from app.controller.desktop.control_server import ControlServer; app = QCoreApplication([]); "
         f"print(ControlServer(lambda c: 'x', {name!r}).listen())"],
        env=dict(os.environ, PYTHONPATH=str(ROOT)), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        code, out, err = finish(qtbot, second)
        assert (code, out) == (0, "False"), err
    finally:
        first.close()

"""Without XDG_RUNTIME_DIR the control socket lives in <tmp>/earshot-<user>, which anyone can create
first. A folder that is a symlink, not 0700 or not ours is refused: `earshot status` does not talk
to whoever listens there, and the window still starts (without the control channel) instead of
obeying an impostor's "another Earshot is running".

The "other user" here is this test, which pre-creates the folder and listens in it, as an
attacker on a shared machine would (a second Unix account cannot be made on every test machine).
"""

from __future__ import annotations

import getpass
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from earshot_testing import REPO_ROOT

from app.controller.desktop.control_server import ControlServer

USER = "".join(c for c in getpass.getuser() if c.isalnum()) or "user"


@pytest.fixture
def shared_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A /tmp of our own, and a session without XDG_RUNTIME_DIR (su, cron, some containers)."""
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.delenv("EARSHOT_CONTROL_SOCKET", raising=False)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


def _prepared_folder(shared_tmp: Path, kind: str) -> Path:
    """What an attacker leaves at <tmp>/earshot-<user>: an open folder, or a symlink to theirs."""
    folder = shared_tmp / f"earshot-{USER}"
    if kind == "mode 0755":
        folder.mkdir()
        folder.chmod(0o755)
        return folder
    theirs = shared_tmp / "attacker"
    theirs.mkdir(mode=0o700)
    folder.symlink_to(theirs, target_is_directory=True)
    return theirs


@pytest.fixture(params=["mode 0755", "symlink"])
def impostor(request: pytest.FixtureRequest, shared_tmp: Path, qapp: object) -> Iterator[list[str]]:
    """A server in the prepared folder that answers every command; yields what it received."""
    received: list[str] = []
    folder = _prepared_folder(shared_tmp, request.param)
    server = ControlServer(lambda command: received.append(command) or "listening",
                           str(folder / "earshot-control.sock"))
    assert server.listen()
    yield received
    server.close()


def test_earshot_status_refuses_a_prepared_folder(qtbot, impostor: list[str], shared_tmp: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_RUNTIME_DIR", "EARSHOT_CONTROL_SOCKET")}
    process = subprocess.Popen([sys.executable, "-m", "app", "status"], cwd=REPO_ROOT, text=True,
                               env=env | {"TMPDIR": str(shared_tmp)}, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    qtbot.waitUntil(lambda: process.poll() is not None, timeout=60_000)  # the impostor answers meanwhile
    out, err = process.communicate()
    assert process.returncode == 1 and out == ""
    assert impostor == []
    assert err.count("\n") == 1 and "refusing the control folder" in err, err


def test_the_window_starts_without_the_channel_instead_of_obeying_an_impostor(
        qtbot, impostor: list[str], shared_tmp: Path) -> None:
    from app.composition import build_desktop_output, create_app, parse_gui_args
    from app.ui import desktop_output

    assert not desktop_output.forward_to_running_instance()  # it would quit "because one runs"
    app, window, controller = create_app([])
    qtbot.addWidget(window)
    output = build_desktop_output(app, window, controller, parse_gui_args([]))
    notices: list[str] = []
    output.integration.notice.connect(notices.append)
    try:
        assert output.start()
        assert output.integration.server is None
        assert impostor == []
        assert any("refusing the control folder" in n for n in notices), notices
    finally:
        output.shutdown()
        controller.shutdown()


def test_a_fresh_folder_is_created_private_and_used(qtbot, shared_tmp: Path, qapp: object) -> None:
    old_umask = os.umask(0o022)
    try:
        server = ControlServer(lambda command: "idle")
        assert server.listen()
        server.close()
    finally:
        os.umask(old_umask)
    folder = shared_tmp / f"earshot-{USER}"
    assert server.name == str(folder / "earshot-control.sock")
    assert folder.stat().st_mode & 0o777 == 0o700

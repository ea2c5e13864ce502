"""The single-instance channel: `earshot toggle|start|stop|cancel|status|show` reach the running app.

A QLocalServer (a Unix socket in $XDG_RUNTIME_DIR, or a named pipe on Windows) that takes one
command line per connection and answers one line: "ok <state>" or "error <message>". The
same channel tells a second `earshot` that one is running already.
"""

from __future__ import annotations

import getpass
import logging
import os
import stat
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtNetwork import QLocalServer, QLocalSocket

COMMANDS = ("toggle", "start", "stop", "cancel", "status", "show")
MAX_LINE = 256


log = logging.getLogger(__name__)


class ControlError(RuntimeError):
    """The running instance could not be reached or refused the command (user-facing)."""


def control_name() -> str:
    """Where the channel lives: $EARSHOT_CONTROL_SOCKET, else a per-user socket or pipe name."""
    if os.environ.get("EARSHOT_CONTROL_SOCKET"):
        return os.environ["EARSHOT_CONTROL_SOCKET"]
    user = "".join(c for c in getpass.getuser() if c.isalnum()) or "user"
    if sys.platform == "win32":
        return f"earshot-control-{user}"
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.access(runtime, os.W_OK):
        folder = Path(runtime)
    else:
        folder = _private_socket_folder(Path(tempfile.gettempdir()) / f"earshot-{user}")
    return str(folder / "earshot-control.sock")


def _private_socket_folder(folder: Path) -> Path:
    """`folder` in a shared temp dir, created 0700, or ControlError when someone else could have
    prepared it: anyone may create /tmp/earshot-<user> first, then answer our commands (or make
    `earshot` quit at once as if another instance ran). /tmp's sticky bit keeps it ours once checked."""
    try:
        folder.mkdir(mode=0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        raise ControlError(f"cannot create the control folder {folder}: {exc.strerror or exc}") from exc
    info = folder.lstat()
    problem = (
        "is a symbolic link"
        if stat.S_ISLNK(info.st_mode)
        else "is not a folder"
        if not stat.S_ISDIR(info.st_mode)
        else "belongs to another user"
        if info.st_uid != os.getuid()
        else f"is not private (mode {stat.S_IMODE(info.st_mode):o}, not 700)"
        if stat.S_IMODE(info.st_mode) != 0o700
        else None
    )
    if problem:
        raise ControlError(f"refusing the control folder {folder}: it {problem}; remove it or set XDG_RUNTIME_DIR")
    return folder


def send_command(command: str, name: str | None = None, timeout_ms: int = 5000) -> str:
    """Send one command to the running app; returns its answer after "ok " (e.g. the state)."""
    socket = QLocalSocket()
    socket.connectToServer(name or control_name())
    if not socket.waitForConnected(timeout_ms):
        raise ControlError("Earshot is not running (start it with `earshot`)")
    socket.write(f"{command}\n".encode())
    socket.flush()
    answer = b""
    while not answer.endswith(b"\n") and socket.waitForReadyRead(timeout_ms):
        answer += bytes(socket.readAll().data())
    socket.disconnectFromServer()
    status, _, detail = answer.decode("utf-8", "replace").strip().partition(" ")
    if status != "ok":
        raise ControlError(detail or "Earshot did not answer")
    return detail


class ControlServer(QObject):
    """Answers commands with `handler(command) -> answer`; `listen()` is False if another instance runs."""

    def __init__(self, handler: Callable[[str], str], name: str | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._handler = handler
        self.name = name or control_name()
        self._server = QLocalServer(self)
        self._server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self._server.newConnection.connect(self._accept)

    def listen(self) -> bool:
        try:  # (with access options set, Qt's listen() would replace a live socket silently)
            send_command("status", self.name, timeout_ms=1000)
            return False  # another instance answers
        except ControlError:
            pass
        if self._server.listen(self.name):
            return True
        QLocalServer.removeServer(self.name)  # a socket left behind by a crash
        return self._server.listen(self.name)

    def close(self) -> None:
        self._server.close()

    def _accept(self) -> None:
        while (socket := self._server.nextPendingConnection()) is not None:
            socket.readyRead.connect(lambda s=socket: self._read(s))
            socket.disconnected.connect(socket.deleteLater)

    def _read(self, socket: QLocalSocket) -> None:
        if not socket.canReadLine():
            if socket.bytesAvailable() > MAX_LINE:
                socket.abort()
            return
        command = bytes(socket.readLine(MAX_LINE).data()).decode("utf-8", "replace").strip().lower()
        if command in COMMANDS:
            try:
                reply = f"ok {self._handler(command)}"
            except Exception as exc:  # a command must never take the app down
                log.exception("control command %r failed", command)
                reply = f"error {exc}"
        else:
            reply = f"error unknown command {command!r} (use {', '.join(COMMANDS)})"
        socket.write(f"{reply}\n".encode())
        socket.flush()
        socket.disconnectFromServer()

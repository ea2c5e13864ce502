"""SIGTERM, SIGINT and SIGHUP end the window's app cleanly, without asking.

Python runs its signal handlers only when the interpreter gets control, and Qt's event loop may
not give it any for a long time (an idle window: never), so Ctrl-C did nothing and SIGTERM (a
logout, a service manager) or SIGHUP (the terminal closed) ended the process on the spot. Here the
C-level handler writes the signal's number to a socket (`signal.set_wakeup_fd`) that a
QSocketNotifier watches, so the event loop wakes at once and leaves with 128 + the signal's
number. `aboutToQuit` then runs the same shutdown as the Quit menu (jobs cancelled, watch folders
stopped, the History flushed); no question is asked, as nobody may be there to answer it. A
signal the process inherited as ignored (`nohup`) stays ignored.
"""

from __future__ import annotations

import logging
import signal
import socket
from types import FrameType

from PySide6.QtCore import QCoreApplication, QObject, QSocketNotifier

QUIT_SIGNALS = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGINT", "SIGHUP") if hasattr(signal, n))

log = logging.getLogger(__name__)


def _noted(_signum: int, _frame: FrameType | None) -> None:
    """The Python-level handler: nothing to do, the wakeup socket carries the signal."""


class QuitOnSignals(QObject):
    """Installed once, on the main thread, for the app's whole life."""

    def __init__(self, app: QCoreApplication) -> None:
        super().__init__(app)
        self.app = app
        self._reader, self._writer = socket.socketpair()
        for end in (self._reader, self._writer):
            end.setblocking(False)
        signal.set_wakeup_fd(self._writer.fileno(), warn_on_full_buffer=False)
        for signum in QUIT_SIGNALS:
            if signal.getsignal(signum) in (signal.SIG_DFL, signal.default_int_handler):
                signal.signal(signum, _noted)
        self._notifier = QSocketNotifier(self._reader.fileno(), QSocketNotifier.Type.Read, self)
        self._notifier.activated.connect(self._quit)

    def _quit(self) -> None:
        try:
            received = self._reader.recv(64)
        except BlockingIOError:
            return
        signums = [n for n in received if n in QUIT_SIGNALS]
        if signums:
            log.info("quitting on %s", signal.Signals(signums[0]).name)
            self.app.exit(128 + signums[0])

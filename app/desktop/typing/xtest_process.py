"""XTEST typing from a helper process: what the app uses on X11.

`XTestKeyboard` checks for held modifiers and sends each key under a short X server grab. A grab
held by a thread of the app's own process can deadlock it: while the server is grabbed, a Qt call
on the GUI thread that waits for an X reply blocks holding Python's GIL, and the typing thread
needs the GIL to end the grab. In a process of its own (spawned, so it shares no lock with the
app) the grab always ends within a key.
"""

from __future__ import annotations

import logging
import multiprocessing
import signal
from multiprocessing.connection import Connection
from typing import Any

from app.desktop.typing.base import OutputError

log = logging.getLogger(__name__)

START_TIMEOUT_S = 30.0
"""How long the helper may take to start and open the display (a cold start imports Python)."""
CLOSE_TIMEOUT_S = 5.0


class XTestProcessKeyboard:
    """`XTestKeyboard` run in a spawned helper process; the same methods, blocking until the
    helper has sent the keys. Raises `OutputError` where the helper cannot type or has died."""

    name = "X11 XTEST"

    def __init__(self, display_name: str | None = None) -> None:
        self._display_name = display_name
        self._start()

    def _start(self) -> None:
        context = multiprocessing.get_context("spawn")
        self._conn, child = context.Pipe()
        self._process: Any = context.Process(
            target=serve, args=(child, self._display_name), name="earshot-typist", daemon=True
        )
        self._process.start()
        child.close()
        try:
            self._reply(START_TIMEOUT_S)
        except OutputError:
            self._stop()
            raise

    def type_text(self, text: str) -> None:
        self._call("type", text, None)

    def send_keys(self, chord: str) -> None:
        self._call("keys", chord, None)

    def type_text_into(self, text: str, window: int) -> None:
        self._call("type", text, window)

    def send_keys_into(self, chord: str, window: int) -> None:
        self._call("keys", chord, window)

    def close(self) -> None:
        """Ask the helper to give the keyboard map back and exit; stop it where it does not."""
        try:
            self._conn.send(("close", "", None))
            self._reply(CLOSE_TIMEOUT_S)
        except (OSError, OutputError):
            log.info("the typing helper did not close cleanly", exc_info=True)
        self._stop()

    def _call(self, operation: str, argument: str, window: int | None) -> None:
        if not self._process.is_alive():  # it died (killed, out of memory): a new one types from now on
            log.warning("the typing helper had stopped (exit code %s): starting another", self._process.exitcode)
            self._stop()
            self._start()
        try:
            self._conn.send((operation, argument, window))
        except OSError as exc:
            raise OutputError(f"the typing helper has stopped ({exc})") from exc
        self._reply(None)

    def _reply(self, timeout_s: float | None) -> None:
        """Wait for the helper's answer to the last request (`timeout_s` None: as long as the
        keys take, while the helper lives); raise its error as `OutputError`."""
        waited = 0.0
        while not self._conn.poll(0.5):
            waited += 0.5
            if not self._process.is_alive() or (timeout_s is not None and waited >= timeout_s):
                raise OutputError(f"the typing helper stopped answering (exit code {self._process.exitcode})")
        try:
            status, message = self._conn.recv()
        except (EOFError, OSError) as exc:
            raise OutputError(f"the typing helper has stopped ({exc!r})") from exc
        if status != "ok":
            raise OutputError(message)

    def _stop(self) -> None:
        self._conn.close()
        self._process.join(CLOSE_TIMEOUT_S)
        if self._process.is_alive():
            self._process.kill()
            self._process.join()


def serve(conn: Connection, display_name: str | None) -> None:
    """The helper's loop: open the display, then type what each request asks until "close" or
    until the app's end of the pipe closes (the app exited or was killed)."""
    from app.desktop.typing.xtest import XTestKeyboard

    # Ctrl-C in the app's terminal reaches the whole process group: the app stops the helper
    # itself (or its pipe closes), so no KeyboardInterrupt traceback from here
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        keyboard = XTestKeyboard(display_name)
    except OutputError as exc:
        conn.send(("error", str(exc)))
        return
    conn.send(("ok", ""))
    try:
        while True:
            try:
                operation, argument, window = conn.recv()
            except (EOFError, OSError):
                return
            if operation == "close":
                break
            conn.send(_run(keyboard, operation, argument, window))
    finally:
        keyboard.close()
    conn.send(("ok", ""))


def _run(keyboard: Any, operation: str, argument: str, window: int | None) -> tuple[str, str]:
    """One request: type `argument` or press the chord `argument`, into `window` where given."""
    methods = {
        "type": (keyboard.type_text, keyboard.type_text_into),
        "keys": (keyboard.send_keys, keyboard.send_keys_into),
    }
    if operation not in methods:
        return "error", f"unknown request {operation!r}"
    anywhere, into_window = methods[operation]
    try:
        if window is None:
            anywhere(argument)
        else:
            into_window(argument, window)
    except OutputError as exc:
        return "error", str(exc)
    except Exception as exc:  # the X connection broke: say so in the app, keep the traceback here
        log.exception("typing failed in the helper")
        return "error", f"typing failed: {exc!r}"
    return "ok", ""

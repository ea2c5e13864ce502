"""Run by test_output_router.py in a child process on the test's Xvfb (Qt's xcb platform).

Usage: python output_driver.py MODE DELTAS_JSON. Feeds committed deltas (null = end of an
utterance) through the post-processor (as the dictation controller does) and the real
OutputRouter, prints "done" once the text is out (and, in paste mode, the clipboard restored),
then keeps serving the clipboard until stdin closes.
"""

from __future__ import annotations

import json
import sys
import threading

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QApplication

from app.controller.desktop.output_router import OutputOptions, OutputRouter
from app.desktop.typing import OutputMode
from app.dictation.postprocess import TextPostProcessor


class _StdinClosed(QObject):
    closed = Signal()


def main() -> int:
    mode, deltas = OutputMode(sys.argv[1]), json.loads(sys.argv[2])
    app = QApplication(sys.argv[:1])
    router = OutputRouter(OutputOptions(mode=mode))
    router.error.connect(lambda message: print("error", message, flush=True))

    def done() -> None:
        print("done", flush=True)

    def feed() -> None:
        router.session_started()
        processor = TextPostProcessor()
        for delta in deltas:
            router.committed(processor.feed(delta) if delta is not None else processor.end_utterance())
        router.committed(processor.end_utterance())
        router.session_ended()
        if mode is OutputMode.PASTE:
            router.paster.idle.connect(done)
        else:
            router.wait_idle(30)
            done()

    stdin = _StdinClosed()
    stdin.closed.connect(app.quit)  # queued: emitted from the reader thread

    def wait_for_stdin_close() -> None:
        sys.stdin.read()
        stdin.closed.emit()

    threading.Thread(target=wait_for_stdin_close, daemon=True).start()
    QTimer.singleShot(0, feed)
    code = app.exec()
    router.shutdown()
    return code


if __name__ == "__main__":
    sys.exit(main())

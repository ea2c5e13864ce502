"""Run by test_spoken_edits_x11.py in a child process on the test's Xvfb (Qt's xcb platform).

Usage: python command_driver.py MODE UTTERANCES_JSON (MODE: type). Each utterance goes word by word through
the real command gate (as the dictation controller's worker side does) and the real
OutputRouter: text is typed or pasted, a command that takes text back goes to
`OutputRouter.take_back`. The utterance "<pause>" prints "paused" and waits for a line on stdin
(the test moves the focus meanwhile). Prints "notice MESSAGE" for each notice, "done" at the end,
then waits for stdin to close.
"""

from __future__ import annotations

import json
import sys
import time

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from app.controller.desktop.output_router import FOCUS_POLL_MS, OutputOptions, OutputRouter
from app.desktop.typing import OutputMode
from app.dictation.events import DictationEvent, EventType
from app.dictation.postprocess import TextPostProcessor
from app.dictation.voice_edits import CommandEvent, CommandGate

PAUSE = "<pause>"


def events(utterance: str) -> list[DictationEvent]:
    words = utterance.split(" ")
    return [*(DictationEvent(EventType.COMMIT, " " + w) for w in words[:-1]),
            DictationEvent(EventType.FINAL, " " + words[-1])]


def main() -> int:
    mode, utterances = OutputMode(sys.argv[1]), json.loads(sys.argv[2])
    app = QApplication(sys.argv[:1])
    router = OutputRouter(OutputOptions(mode=mode))
    router.error.connect(lambda message: print("error", message, flush=True))
    router.notice.connect(lambda message: print("notice", message, flush=True))
    gate = CommandGate(TextPostProcessor())

    def settle() -> None:  # typing runs on the output thread
        router.wait_idle(30)

    def pump(seconds: float) -> None:  # the focus watch runs now, as it would have meanwhile
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            app.processEvents()
            time.sleep(0.02)

    def feed() -> None:
        router.session_started()
        for utterance in utterances:
            if utterance == PAUSE:
                settle()
                print("paused", flush=True)
                sys.stdin.readline()
                pump(2 * FOCUS_POLL_MS / 1000)
                continue
            for event in events(utterance):
                for out in gate.process(event):
                    if isinstance(out, CommandEvent):
                        router.take_back(out)
                    elif out.text:
                        router.committed(out.text)
        router.session_ended()
        settle()
        print("done", flush=True)
        sys.stdin.read()
        app.quit()

    QTimer.singleShot(0, feed)
    code = app.exec()
    router.shutdown()
    return code


if __name__ == "__main__":
    sys.exit(main())

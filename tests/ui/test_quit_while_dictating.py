"""Quitting right after cancelling a dictation whose worker is still decoding: the app waits for
that worker before it exits. A decode cut off at interpreter exit aborts the whole process
("terminate called without an active exception": the thread is stopped inside onnxruntime's
C++ code), so Earshot would crash on the way out. Real controller, real worker and tiny.en."""

from __future__ import annotations

import threading

from gui_helpers import DATA
from pytestqt.qtbot import QtBot

from app.controller.app_controller import AppController, AppParts
from app.controller.ports import AudioSource
from app.controller.states import ModelState, RecordState

CLIP = "espeak_morning.wav"


def dictation_workers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "earshot-dictation" and t.is_alive()]


def test_shutdown_after_a_cancel_waits_for_the_worker_still_decoding(qtbot: QtBot, parts: AppParts) -> None:
    controller = AppController(parts)
    controller.dictation.source_override = AudioSource(replay_file=DATA / CLIP, realtime=True)
    controller.start()
    qtbot.waitUntil(lambda: controller.models.state == ModelState.READY, timeout=120_000)
    controller.dictation.toggle()
    qtbot.waitUntil(lambda: controller.dictation.state == RecordState.HEARING_SPEECH, timeout=30_000)
    assert dictation_workers()  # decoding the speech it hears

    controller.dictation.cancel()  # the user cancels, then quits at once
    controller.shutdown()
    assert dictation_workers() == []  # joined before the interpreter could cut it off

"""Adapts the Qt-free dictation worker (app.dictation) to the controller's session port."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from app.audio.capture import AudioDeviceError, MicrophoneCapture, rescan_devices
from app.audio.replay import ReplaySource
from app.audio.vad import VadOptions
from app.controller.ports import AudioSource, DictationRequest
from app.dictation.audio_journal import AudioJournal
from app.dictation.command_match import CommandOptions
from app.dictation.events import DictationEvent, EventType
from app.dictation.journaled_source import JournaledSource
from app.dictation.live_worker import DictationOptions, DictationWorker
from app.dictation.policy import PolicyOptions, streaming_decode_options
from app.dictation.session import file_source, microphone_source

log = logging.getLogger(__name__)

LEVEL_WINDOW_S = 0.05
"""The level meter shows the peak of the newest 50 ms of audio."""


def vad_threshold(sensitivity: float) -> float:
    """Sensitivity 0..1 (higher hears quieter speech) -> Silero speech probability threshold."""
    return float(min(0.8, max(0.2, 0.8 - 0.6 * sensitivity)))


class LiveSession:
    """One dictation session on the real worker; events go to `emit` from its thread."""

    def __init__(
        self,
        request: DictationRequest,
        emit: Callable[[DictationEvent], None],
        source: MicrophoneCapture | ReplaySource | None = None,
    ) -> None:
        """`source` replaces the one `request.source` names (tests: a device that fails)."""
        self._emit = emit
        captured = source or open_source(request.source)
        self._journal = (
            _open_journal(request.recovery_dir, request.entry_id) if request.recovery_dir is not None else None
        )
        self._source = JournaledSource(captured, self._journal) if self._journal is not None else captured
        self._keep_journal = False  # abandoned: the journal stays for the next start
        decode = dataclasses.replace(
            streaming_decode_options(request.options.language),
            task=request.options.task,
            initial_prompt=request.options.initial_prompt,
            vocabulary=request.options.vocabulary,
            vocabulary_boost=request.options.vocabulary_boost,
        )
        options = DictationOptions(
            policy=PolicyOptions(decode=decode, close_sentences=request.settings.close_sentences),
            vad=VadOptions(
                threshold=vad_threshold(request.settings.vad_sensitivity),
                min_silence_s=request.settings.min_silence_s,
                speech_pad_s=request.settings.speech_pad_s,
            ),
            realtime=request.source.replay_file is None or request.source.realtime,
            record_path=request.keep_audio_path,
            commands=CommandOptions() if request.commands else None,
        )
        self._worker = DictationWorker(self._source, request.engine, self._forward, options)

    def start(self) -> None:
        try:
            self._worker.start()
        except Exception:  # the microphone would not start: do not leave the worker waiting
            log.warning("the live session did not start", exc_info=True)
            self._worker.cancel()
            if self._journal is not None:
                self._journal.discard()
            raise

    def stop(self) -> None:
        self._worker.stop()

    def cancel(self) -> None:
        self._worker.cancel()

    def abandon(self) -> None:
        self._keep_journal = True
        self._worker.cancel()

    def join(self, timeout: float) -> bool:
        return bool(self._worker.join(timeout))

    def level(self) -> float:
        """Peak of the newest audio still buffered: the worker's 16 kHz timeline keeps speech
        until it is committed; the source ring, what the worker has not pulled yet."""
        return max(_newest_peak(self._worker.timeline.ring), _newest_peak(self._source.ring))

    def _forward(self, event: DictationEvent) -> None:
        """Worker thread. Committed text is stored by `emit`; only then is its audio let go."""
        if event.type is EventType.SUMMARY:
            self._end_journal()
        self._emit(event)
        if self._journal is not None and event.type in (EventType.COMMIT, EventType.FINAL):
            self._journal.mark_committed(event.audio_end_s)

    def _end_journal(self) -> None:
        """The session is over: its audio is transcribed (or thrown away by cancel) unless the
        worker failed or the app quit (`abandon`); then the journal stays for the next start to offer."""
        if self._journal is None:
            return
        try:
            if self._worker.failure is None and not self._keep_journal:
                self._journal.discard()
            else:
                self._journal.close()
        except OSError:
            log.exception("Could not close the dictation audio journal %s", self._journal.folder)


def _open_journal(folder: Path, entry_id: int | None) -> AudioJournal | None:
    """The session's crash-recovery journal (naming its History entry `entry_id`); None when
    `folder` cannot take it (a file in its place, a full or read-only disk): the dictation goes
    on, only a crash would lose its audio."""
    try:
        return AudioJournal(folder, entry_id=entry_id)
    except OSError:
        log.warning("the dictation audio is not journaled: %s cannot take it", folder, exc_info=True)
        return None


def _newest_peak(ring: Any) -> float:
    try:
        end = ring.written
        start = max(ring.released, end - int(LEVEL_WINDOW_S * ring.sample_rate))
        block = ring.read(start, end) if end > start else None
    except Exception:  # released by the worker meanwhile: skip this frame
        log.info("level meter skipped a frame", exc_info=True)
        return 0.0
    return float(np.max(np.abs(block))) if block is not None and block.size else 0.0


def open_source(source: AudioSource) -> MicrophoneCapture | ReplaySource:
    """The capture device, or the file replayed through the same ring (tests, `--replay`)."""
    if source.replay_file is not None:
        return file_source(source.replay_file, realtime=source.realtime)
    try:
        return microphone_source(source.device)
    except AudioDeviceError:  # PortAudio lists devices once: look for a server or device that came later
        log.info("No usable input device in PortAudio's list; rescanning", exc_info=True)
    rescan_devices()  # slow (a fraction of a second), so only when the list we have does not do
    return microphone_source(source.device)

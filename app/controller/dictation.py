"""Drives one live dictation session at a time and turns its events into Qt signals."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from app.controller.dictation_text import UtteranceTimes, spoken_words, word_times
from app.controller.model_manager import ModelManager
from app.controller.ports import (
    AudioSource,
    DictationFactory,
    DictationRequest,
    DictationSession,
)
from app.controller.states import ModelState, RecordState
from app.dictation.events import DictationEvent, EventType
from app.dictation.postprocess import PostProcessOptions, TextPostProcessor
from app.dictation.voice_edits import CommandEvent, CommandGate, GateOutput
from app.engine.types import DecodeOptions
from app.history.store import EntryKind, HistoryStore
from app.settings.schema import DictationSettings

log = logging.getLogger(__name__)

LEVEL_POLL_MS = 33


class DictationController(QObject):
    """Record / stop / cancel. Committed text goes to the history as it arrives.

    Committed text is post-processed once, here (spoken commands, fillers, replacements, the
    spacing rules of `postprocess`): the window shows, the history stores and the output router
    types the same text. Signals carry what the transcript view shows: `committed` is a
    (post-processed) delta appended for good, `tentative` replaces the grey tail (raw words: it
    is never stored or typed). `session_started(entry id)` comes before a session's first text.
    Every committed delta of a session reaches the history, `committed` (window, typed or pasted
    output) exactly once, also after an error: a session that reports an error (microphone lost)
    is FINISHING while its worker commits what it still has, and only its SUMMARY event (the last) closes it
    and shows the error. A spoken command that takes text back ("scratch that") is applied to
    the history entry here and comes as `command` (a `CommandEvent`) for the window and the
    output router, which apply the same `EndEdit`.
    """

    state_changed = Signal(object, str)  # RecordState, reason ("" unless ERROR)
    session_started = Signal(int)  # the history entry id of the new session
    committed = Signal(str)
    utterance_ended = Signal()  # after the FINAL commit of an utterance (output flushes held-back words)
    tentative = Signal(str)
    level = Signal(float)  # 0..1
    commit_latency = Signal(float)  # milliseconds
    history_changed = Signal()
    command = Signal(object)  # CommandEvent: a spoken command took committed text back
    opening = Signal()  # a session is about to open its microphone (a microphone test lets go of it)
    _event = Signal(int, object)  # session number, DictationEvent; from the worker thread

    def __init__(
        self,
        factory: DictationFactory,
        models: ModelManager,
        history: HistoryStore,
        request_options: Callable[[], tuple[AudioSource, DecodeOptions, DictationSettings]],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._factory = factory
        self._models = models
        self._history = history
        self._request_options = request_options
        self._session: DictationSession | None = None
        self._ended: list[DictationSession] = []  # cancelled or ended, their worker maybe still decoding
        self._session_number = 0
        self._entry_id: int | None = None
        self._error = ""  # the error a session reported; shown once it has ended
        self._start_when_ready = False
        self.state = RecordState.IDLE
        self.reason = ""
        self.postprocess = PostProcessOptions()
        """The text rules of the next session (a session keeps one set of rules)."""
        self.source_override: AudioSource | None = None
        """Replaces the configured source (tests and `--replay` use a file here)."""
        self.recovery_dir: Path | None = None
        """Where sessions journal their audio for crash recovery (None = they don't)."""
        self.keep_audio: Callable[[], bool] = lambda: False
        """Whether the next session keeps its audio for playback (Settings; off: the voice is private)."""
        self._level_timer = QTimer(self, interval=LEVEL_POLL_MS)
        self._level_timer.timeout.connect(self._poll_level)
        self._event.connect(self._on_event, Qt.ConnectionType.QueuedConnection)
        models.state_changed.connect(self._on_model_state)

    def toggle(self) -> None:
        if self.state.is_active:
            self.stop()
        elif self.state == RecordState.LOADING_MODEL and self._start_when_ready:
            self._start_when_ready = False
            self._set_state(RecordState.IDLE)
        elif self.state != RecordState.FINISHING:
            self.start()

    def start(self) -> None:
        if self._session is not None:
            return
        if self._models.state != ModelState.READY or self._models.engine is None:
            if self._models.state == ModelState.FAILED:
                self._set_state(RecordState.ERROR, "The model did not load. Open Settings.")
                return
            self._start_when_ready = True
            self._set_state(RecordState.LOADING_MODEL)
            self._models.reload()  # unloaded while idle: "Loading model" until it is back
            return
        self._open_session()

    def stop(self) -> None:
        """Finish the utterance: the worker decodes what it has, commits it, then ends."""
        if self._session is None or self.state == RecordState.FINISHING:
            return
        self._set_state(RecordState.FINISHING)
        self._session.stop()

    def cancel(self) -> None:
        self._start_when_ready = False
        if self._session is not None:
            self._session.cancel()
            self._end_session()
        self._set_state(RecordState.IDLE)

    def shutdown(self, timeout_s: float = 3.0) -> None:
        """Cancel and wait for the workers, the current session's and those of sessions that
        ended but may still be decoding: a model call cut off at interpreter exit aborts the
        process (its thread is stopped inside onnxruntime's C++ code). Quitting is not Cancel: the
        audio of the current session that has no text yet is kept for the next start to offer."""
        self._start_when_ready = False
        if self._session is not None:
            self._session.abandon()
            self._end_session()
        self._set_state(RecordState.IDLE)
        self._ended = [s for s in self._ended if not s.join(timeout_s)]

    @property
    def active(self) -> bool:
        return self._session is not None

    def _open_session(self) -> None:
        self.opening.emit()
        source, options, chosen = self._request_options()
        engine = self._models.engine
        assert engine is not None
        self._session_number += 1
        entry_id = self._history.create(EntryKind.DICTATION, "")  # named by its first words
        keep = self._history.audio.path_for(entry_id) if self.keep_audio() else None
        request = DictationRequest(
            engine,
            self.source_override or source,
            options,
            chosen,
            self.recovery_dir,
            entry_id,
            keep,
            commands=self.postprocess.spoken_punctuation,
        )
        self.session_started.emit(entry_id)
        try:
            session = self._factory(request, self._deliver_from(self._session_number, entry_id))
            session.start()
        except Exception as exc:  # no device, no PortAudio, bad file: say so, stay usable
            log.exception("starting dictation failed")
            self._history.delete(entry_id)
            self._set_state(RecordState.ERROR, _with_advice(str(exc)))
            return
        self._session, self._entry_id, self._error = session, entry_id, ""
        self._level_timer.start()
        self._set_state(RecordState.LISTENING)

    def _deliver_from(self, number: int, entry_id: int) -> Callable[[DictationEvent], None]:
        """The worker's callback: committed text is post-processed and goes to disk first, on
        the worker thread, so a crash or kill right after a commit loses nothing (but words the
        post-processor still holds back, such as a "new" that may start "new line"); then the
        window is told. Events of one session arrive in order, so one processor serves it."""
        gate = CommandGate(TextPostProcessor(self.postprocess), enabled=self.postprocess.spoken_punctuation)
        utterance = UtteranceTimes()

        def deliver(event: DictationEvent) -> None:
            for processed in gate.process(event):
                try:  # queued and journaled when the database is locked; never stop the worker
                    self._store(entry_id, processed, utterance)
                except Exception:
                    log.exception("Committed text could not be saved to the history")
                with contextlib.suppress(RuntimeError):  # the window is gone: the text is saved
                    self._event.emit(number, processed)

        return deliver

    def _store(self, entry_id: int, event: GateOutput, utterance: UtteranceTimes) -> None:
        """Committed text into the entry; once an utterance is over, when it was spoken."""
        if isinstance(event, CommandEvent):
            if event.edit is not None:
                self._history.take_back(
                    entry_id, event.edit.removed, event.edit.inserted, drop_words=spoken_words(event.edit.removed)
                )
                utterance.take_back(event.edit)
            return
        if event.type in (EventType.COMMIT, EventType.FINAL) and event.text:
            self._history.append(entry_id, event.text)
            self._history.add_words(entry_id, word_times(event))
        for piece in utterance.update(event):
            self._history.add_segment(entry_id, piece)

    def _on_event(self, number: int, event: GateOutput) -> None:
        if isinstance(event, CommandEvent):
            self.command.emit(event)  # applied to the history already: show it, always
            self.history_changed.emit()
            return
        kind = event.type
        if kind in (EventType.COMMIT, EventType.FINAL):
            self._commit(event)  # committed text is in the history already: show it, always
            return
        if number != self._session_number:
            return  # a late event of a session that was cancelled
        if kind == EventType.TENTATIVE:
            self.tentative.emit(event.text)
            self._hear_speech()
        elif kind == EventType.ERROR and self._session is not None:
            self._on_session_error(_with_advice(event.text))
        elif kind == EventType.SUMMARY and self._session is not None:
            self._end_session()
            self._set_state(RecordState.ERROR if self._error else RecordState.IDLE, self._error)

    def _on_session_error(self, message: str) -> None:
        """The worker goes on committing what it has: stay FINISHING until its SUMMARY (the last event)."""
        self._error = message
        assert self._session is not None
        try:
            self._session.stop()  # closes the dead stream now (PortAudio may be rescanned later)
        except Exception:
            log.exception("Stopping the session after its error failed")
        self._set_state(RecordState.FINISHING, message)

    def _commit(self, event: DictationEvent) -> None:
        if event.text:
            self.committed.emit(event.text)
            self.history_changed.emit()
        if self._session is None:
            return  # the text of a session already closed (cancelled): shown, nothing else
        if event.latency_ms is not None:
            self.commit_latency.emit(event.latency_ms)
        if event.type == EventType.FINAL:
            self.utterance_ended.emit()
            self.tentative.emit("")
            if self.state == RecordState.HEARING_SPEECH:
                self._set_state(RecordState.LISTENING)

    def _hear_speech(self) -> None:
        if self.state == RecordState.LISTENING:
            self._set_state(RecordState.HEARING_SPEECH)

    def _end_session(self) -> None:
        self._ended = [s for s in self._ended if not s.join(0)]  # forget the workers that are done
        if self._session is not None:
            self._ended.append(self._session)
        self._session = None
        self._session_number += 1  # whatever that session still sends is stale
        self._level_timer.stop()
        self.level.emit(0.0)
        self.tentative.emit("")
        if self._entry_id is not None:
            self._history.delete_if_empty(self._entry_id)
            self._entry_id = None
            self.history_changed.emit()

    def _poll_level(self) -> None:
        if self._session is not None:
            self.level.emit(max(0.0, min(1.0, float(self._session.level()))))

    def _on_model_state(self, state: ModelState) -> None:
        if state == ModelState.READY and self._start_when_ready:
            self._start_when_ready = False
            self._open_session()
        elif state == ModelState.FAILED and self._start_when_ready:
            self._start_when_ready = False
            self._set_state(RecordState.ERROR, "The model did not load. Open Settings.")
        elif state == ModelState.LOADING and self.state == RecordState.ERROR:
            self._set_state(RecordState.IDLE)

    def _set_state(self, state: RecordState, reason: str = "") -> None:
        self.state, self.reason = state, reason
        self.state_changed.emit(state, reason)


def _with_advice(message: str) -> str:
    lowered = message.lower()
    if "device" in lowered or "portaudio" in lowered or "microphone" in lowered:
        return f"{message} Check that a microphone is connected, or pick another input device."
    return message

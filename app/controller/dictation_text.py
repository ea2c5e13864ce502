"""The text side of a dictation session, on its worker thread (Qt-free): the times of each
utterance for the history entry (the text itself is post-processed by
`app.dictation.voice_edits.CommandGate`)."""

from __future__ import annotations

from app.dictation.events import DictationEvent, EventType
from app.dictation.voice_edits import EndEdit
from app.history.entry import split_closing_mark
from app.history.store import TimedText


def word_times(event: DictationEvent) -> tuple[TimedText, ...]:
    """The committed words of `event` with their times, as the History keeps them (stripped)."""
    return tuple(TimedText(w.start, max(w.end, w.start), w.word.strip()) for w in event.words or () if w.word.strip())


def spoken_words(text: str) -> int:
    """How many words `text` (taken back by a spoken command) holds: the word times it drops."""
    return sum(1 for token in text.split() if any(ch.isalnum() for ch in token))


class UtteranceTimes:
    """Collects the committed text of the utterance being dictated and when it was spoken.

    An utterance is over at its FINAL, but punctuation committed after it (the end mark the live
    policy holds back, what the post-processor flushes at the session's end) still belongs to
    it, so its piece is handed out when the next words start or the session ends. Times are in
    seconds of session audio.
    """

    def __init__(self) -> None:
        self.start = self.end = 0.0
        self.text = ""
        self.closed = False

    def update(self, event: DictationEvent) -> list[TimedText]:
        """The finished pieces `event` makes known (usually none)."""
        done: list[TimedText] = []
        kind = event.type
        text = event.text
        if kind in (EventType.COMMIT, EventType.FINAL) and text:
            if self.closed and any(ch.isalnum() for ch in text):
                mark, text = split_closing_mark(text)
                self.text += mark  # ". Next words": the mark ends the utterance before
                done = self._finish()
            if not self.text:
                self.start = event.audio_start_s
            self.text += text
            self.end = max(self.end, event.audio_end_s)
        if kind == EventType.FINAL:
            self.closed = True
        elif kind == EventType.SUMMARY:  # (stopped mid-utterance: it ends with its last words)
            done = self._finish()
        return done

    def take_back(self, edit: EndEdit) -> None:
        """A spoken command took `edit.removed` back: the utterance not yet handed out loses it
        (an utterance already stored keeps its times and text)."""
        edited = edit.applied_to(self.text)
        if edited is not None:
            self.text = edited
            if not self.text.strip():
                self._reset()

    def _reset(self) -> None:
        self.start = self.end = 0.0
        self.text = ""
        self.closed = False

    def _finish(self) -> list[TimedText]:
        piece = TimedText(self.start, max(self.end, self.start), self.text) if self.text.strip() else None
        self._reset()
        return [piece] if piece else []

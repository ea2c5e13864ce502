"""Editing by voice: a session's committed text, with command utterances applied (Qt-free).

`CommandGate` stands between a dictation session's events and the text post-processor. The
first words of every utterance are held back until the utterance is either longer than a
command can be (then they are text, output at once) or over (then the whole utterance is
matched by sound, `app.dictation.command_match`). A command that writes something (spoken
punctuation said alone, "cap london", "literal comma") becomes ordinary committed text; one that
takes text back ("scratch that", "delete last word") becomes a `CommandEvent` whose `EndEdit`
says exactly which text at the end of the session's output goes, so the window, the history
entry and the focused app apply the same change.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from app.dictation.command_heard import decide
from app.dictation.command_match import (
    CommandKind,
    CommandMatch,
    CommandOptions,
    match_command,
    may_be_command,
)
from app.dictation.events import DictationEvent, EventType, TimedWord
from app.dictation.postprocess import ProcessorState, TextPostProcessor

_LEADING_MARKS = re.compile(r"^\s*[^\w\s]+(?=\s|$)")
_LAST_WORD = re.compile(r"\s*\S+\s*$")
_GUESSED_END = re.compile(r"[.,!?;:…]+$")
NOTHING_TO_TAKE_BACK = "Nothing to take back: this dictation has no words yet."


@dataclass(frozen=True)
class EndEdit:
    """At the end of the session's text, `removed` (exactly that text) is replaced by `inserted`."""

    removed: str
    inserted: str = ""

    def applied_to(self, text: str) -> str | None:
        """`text` with the edit made; None when it no longer ends with `removed`."""
        if not text.endswith(self.removed):
            return None
        return text[: len(text) - len(self.removed)] + self.inserted


@dataclass(frozen=True)
class CommandEvent:
    """A command that takes text back: `edit` to apply, or None with a one-line `message` that
    says why nothing changed."""

    kind: CommandKind
    edit: EndEdit | None
    message: str = ""


GateOutput = DictationEvent | CommandEvent


@dataclass
class _Utterance:
    """The output of one utterance and the post-processor's state before it."""

    text: str
    before: ProcessorState


class CommandGate:
    """Turns one session's events into the events to show, store and output (in order).

    Commands are recognised only while `enabled` (the spoken punctuation switch); the
    post-processor's rules apply to all text either way.
    """

    def __init__(
        self, processor: TextPostProcessor, options: CommandOptions | None = None, enabled: bool = True
    ) -> None:
        self._processor = processor
        self._options = options or CommandOptions()
        self._enabled = enabled
        self._done: list[_Utterance] = []
        self._current = _Utterance("", processor.state())
        self._held: list[DictationEvent] = []
        self._deciding = enabled
        self._after_command = False  # the end mark Whisper guesses for a command is not text
        self.applied: list[tuple[str, CommandMatch]] = []  # (utterance as heard, command), in order

    @property
    def text(self) -> str:
        """The session's output so far (what the window shows, the history stores)."""
        return "".join(u.text for u in self._done) + self._current.text

    def process(self, event: DictationEvent) -> list[GateOutput]:
        """The events `event` makes: committed text post-processed, commands applied."""
        kind = event.type
        if kind is EventType.TENTATIVE and self._held:
            # held words are still shown, in grey, before the tail the worker has not committed
            return [dataclasses.replace(event, text=self._held_text() + event.text)]
        if kind not in (EventType.COMMIT, EventType.FINAL, EventType.SUMMARY):
            return [event]
        out: list[GateOutput] = []
        if not self._current.text and not self._held:
            event, out = self._end_mark(event)
        if event.text.strip():
            self._after_command = False
        if kind == EventType.COMMIT:
            return out + self._commit(event)
        if kind == EventType.FINAL:
            return out + self._final(event)
        if self._held:
            out += [
                o
                for o in self._final(dataclasses.replace(event, type=EventType.FINAL, text=""))
                if isinstance(o, CommandEvent) or o.text
            ]
        rest = self._processor.end_utterance()
        return out + ([DictationEvent(EventType.COMMIT, rest)] if rest else []) + [event]

    def _end_mark(self, event: DictationEvent) -> tuple[DictationEvent, list[GateOutput]]:
        """The mark that ends the last utterance, when it comes with the next one's first words:
        it belongs to that utterance (taking the next one back leaves it)."""
        mark = _LEADING_MARKS.match(event.text)
        if mark is None or not self._done:
            return event, []
        if self._after_command:
            return dataclasses.replace(event, text=event.text[mark.end() :]), []
        self._processor.feed(mark.group())
        flushed = self._processor.flush_held()
        self._done[-1].text += flushed
        rest = dataclasses.replace(event, text=event.text[mark.end() :])
        return rest, [DictationEvent(EventType.COMMIT, flushed, event.utterance)] if flushed else []

    def _commit(self, event: DictationEvent) -> list[GateOutput]:
        if not self._deciding:
            return [self._text(event, self._processor.feed(event.text), event.words)]
        self._held.append(event)
        if may_be_command(self._held_text(), self._options):
            return []  # decided when it is over or too long
        return self._release(EventType.COMMIT)

    def _final(self, event: DictationEvent) -> list[GateOutput]:
        if self._deciding:
            self._held.append(event)
            found = decide(match_command(self._held_text(), self._options), event.command, self._options)
            out = self._apply(found, event) if found is not None else self._release(EventType.FINAL)
        else:
            found = None
            out = [self._text(event, self._processor.feed(event.text) + self._processor.end_utterance(), event.words)]
        self._next_utterance()
        self._after_command = found is not None
        return out

    def _held_text(self) -> str:
        return "".join(e.text for e in self._held)

    def _release(self, kind: EventType) -> list[GateOutput]:
        """The held words are text: output them as one event."""
        first, last = self._held[0], self._held[-1]
        text = self._processor.feed(self._held_text())
        if kind == EventType.FINAL:
            text += self._processor.end_utterance()
        words = tuple(w for e in self._held for w in e.words or ())
        self._held, self._deciding = [], False
        return [self._text(dataclasses.replace(last, type=kind, audio_start_s=first.audio_start_s), text, words)]

    def _text(self, event: DictationEvent, text: str, words: tuple[TimedWord, ...] | None = None) -> DictationEvent:
        """`text` as processed; `words`: the times of the words it was made of (as spoken: fillers
        and replaced words are among them), None for a command's text."""
        self._current.text += text
        return dataclasses.replace(event, text=text, words=words or None)

    def _apply(self, found: CommandMatch, event: DictationEvent) -> list[GateOutput]:
        self.applied.append((self._held_text(), found))
        self._held = []
        kind = found.kind
        if kind is CommandKind.SCRATCH:
            return [self._scratch()]
        if kind is CommandKind.DELETE_WORD:
            return [self._delete_word()]
        if kind is CommandKind.PUNCTUATION:
            text = self._processor.feed(found.phrase.words) + self._processor.end_utterance()
            guessed = _GUESSED_END.search(self.text)
            mark = found.phrase.punctuation
            if guessed is not None and mark is not None and mark.is_punctuation and self._done:
                return [self._replace_end(kind, guessed.group(), text)]  # the user's mark, not Whisper's guess
            return [self._text(event, text)]
        text = self._processor.feed_literal(_argument_text(found)) + self._processor.end_utterance()
        return [self._text(event, text)]

    def _replace_end(self, kind: CommandKind, removed: str, inserted: str) -> CommandEvent:
        last = self._done[-1]
        last.text = last.text[: len(last.text) - len(removed)] + inserted
        return CommandEvent(kind, EndEdit(removed, inserted))

    def _scratch(self) -> CommandEvent:
        if not self._done:
            return CommandEvent(CommandKind.SCRATCH, None, NOTHING_TO_TAKE_BACK)
        last = self._done.pop()
        self._processor.restore(last.before)
        self._current = _Utterance("", last.before)
        return CommandEvent(CommandKind.SCRATCH, EndEdit(last.text))

    def _delete_word(self) -> CommandEvent:
        word = _LAST_WORD.search(self.text)
        if word is None:
            return CommandEvent(CommandKind.DELETE_WORD, None, NOTHING_TO_TAKE_BACK)
        removed = word.group()
        left = len(removed)
        while left and self._done:
            last = self._done[-1]
            if len(last.text) > left:
                last.text = last.text[:-left]
                break
            left -= len(last.text)
            self._done.pop()
            if not self._done:
                self._processor.restore(last.before)  # nothing left: the next words start the text
        return CommandEvent(CommandKind.DELETE_WORD, EndEdit(removed))

    def _next_utterance(self) -> None:
        if self._current.text:
            self._done.append(self._current)
        self._current = _Utterance("", self._processor.state())
        self._held, self._deciding = [], self._enabled


def _argument_text(found: CommandMatch) -> str:
    """The words "cap", "all caps" or "literal" apply to, without the end mark Whisper guesses
    for a short utterance."""
    words = _GUESSED_END.sub("", found.argument.strip())
    if found.kind is CommandKind.CAP:
        return " ".join(w[:1].upper() + w[1:] for w in words.split())
    if found.kind is CommandKind.ALL_CAPS:
        return words.upper()
    return words

"""Post-processing of committed dictation text before it is typed or pasted (Qt-free).

Rules, each switched by `PostProcessOptions`:
- spoken punctuation and commands ("comma", "period", "question mark", "new line", ...) become
  the characters they name; the punctuation Whisper guessed next to them is dropped, since the
  user said what they wanted;
- filler words (um, uh, erm, ...) are removed with the punctuation Whisper put after them;
- a user list of replacements ("earshot app -> Earshot") is applied on whole words, case-insensitively;
- spacing between utterances: none before the first words of a session (unless asked), one space
  between utterances, optionally a trailing space after each utterance; capital letters after a
  spoken sentence end.

Only committed text goes through here (tentative text is never output). Text arrives as commit
deltas in pieces: a word that could start a longer phrase ("new" of "new line") and the closing
punctuation of the last word are held back until the next delta or the end of the utterance, so
what has been output never needs to be taken back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from app.dictation.spoken_commands import DEFAULT_FILLERS, SPOKEN_COMMANDS, SpokenCommand

_TOKEN = re.compile(r"\s*\S+")
_PARTS = re.compile(r"^(\s*)([\"'(\[¿¡“‘«]*)(.*?)([.,!?;:…\"')\]”’»]*)$", re.DOTALL)
_NORM_DROP = re.compile(r"[^\w']+")
_SENTENCE_END = re.compile(r"[.?!…]")
_GUESSED_MARK = re.compile(r"[.,!?;:…]+")
_PRONOUN_I = re.compile(r"^I('(m|ll|ve|d))?$")


@dataclass(frozen=True)
class Replacement:
    """Say `spoken` (whole words, any case) and get `written`, exactly as given."""

    spoken: str
    written: str


@dataclass(frozen=True)
class PostProcessOptions:
    """How committed text is cleaned up before it is typed or pasted (each field says what it does)."""

    spoken_punctuation: bool = True
    remove_fillers: bool = True
    capitalize_sentences: bool = True
    """Capitalise the first word after a spoken sentence end ("period", "new line", ...)."""
    space_at_start: bool = False
    """Put a space before the first words of a session (e.g. to continue after existing text)."""
    space_between_utterances: bool = True
    trailing_space: bool = False
    """End every utterance with a space (the next one then starts without one)."""
    replacements: tuple[Replacement, ...] = ()
    filler_words: frozenset[str] = field(default_factory=lambda: DEFAULT_FILLERS)


def parse_replacements(text: str) -> tuple[Replacement, ...]:
    """Parse one `spoken -> written` pair per line; blank lines and `#` comments are skipped.

    `\\n` and `\\t` in the written side become a newline and a tab. Raises ValueError naming the
    line for anything else.
    """
    pairs = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        spoken, arrow, written = line.partition("->")
        if not arrow or not _norm_words(spoken):
            raise ValueError(f"replacement line {number}: write it as 'spoken words -> written text'")
        pairs.append(Replacement(spoken.strip(), written.strip().replace("\\n", "\n").replace("\\t", "\t")))
    return tuple(pairs)


@dataclass(frozen=True)
class ProcessorState:
    """What a `TextPostProcessor` remembers between utterances (see `state()`)."""

    held: str
    session_started: bool
    utterance_started: bool
    glue: bool
    capitalize_next: bool
    lowercase_next: bool
    spoken_mark: bool


@dataclass(frozen=True)
class _Token:
    """One whitespace-separated piece of Whisper text, split around its word."""

    space: str
    opening: str
    word: str
    closing: str

    @property
    def norm(self) -> str:
        return _NORM_DROP.sub("", self.word.lower())

    @property
    def capitalized(self) -> bool:
        return self.word[:1].isupper()


def _tokens(text: str) -> list[_Token]:
    tokens = []
    for piece in _TOKEN.findall(text):
        match = _PARTS.match(piece)
        assert match is not None  # the pattern matches any string
        tokens.append(_Token(*match.groups()))
    return tokens


def _norm_words(text: str) -> tuple[str, ...]:
    return tuple(w for w in (_NORM_DROP.sub("", p.lower()) for p in text.split()) if w)


_Action = SpokenCommand | Replacement | None  # None: a filler word, dropped


class TextPostProcessor:
    """Turns a session's committed deltas into the text to output.

    Call `feed()` with each committed delta, `end_utterance()` when an utterance is final (and
    at the end of the session), `reset()` before a new session. Each returns text to output now.
    """

    def __init__(self, options: PostProcessOptions | None = None) -> None:
        self.options = options or PostProcessOptions()
        self._phrases = self._build_phrases()
        self._prefixes = {p[:n] for p in self._phrases for n in range(1, len(p))}
        self.reset()

    def reset(self) -> None:
        self._pending: list[_Token] = []
        self._held = ""  # closing punctuation of the last word: a spoken command may replace it
        self._session_started = False
        self._utterance_started = False
        self._glue = False  # the next piece attaches without a space (after a new line, "(")
        self._capitalize_next = False
        self._lowercase_next = False
        self._spoken_mark = False  # the last output was a spoken command ("period", "new line")

    def feed(self, delta: str) -> str:
        self._pending.extend(_tokens(delta))
        return self._drain(final=False)

    def feed_literal(self, text: str) -> str:
        """Output `text` as words: no spoken command, filler or replacement applies to it."""
        out = self._drain(final=True)
        return out + "".join(self._word(token, user_text=True) for token in _tokens(text))

    def flush_held(self) -> str:
        """The closing punctuation held back after the last word (it ends what came before)."""
        out, self._held = self._held, ""
        return out

    def state(self) -> ProcessorState:
        """Between utterances: what `restore` needs to continue as if nothing came after."""
        return ProcessorState(
            self._held,
            self._session_started,
            self._utterance_started,
            self._glue,
            self._capitalize_next,
            self._lowercase_next,
            self._spoken_mark,
        )

    def restore(self, state: ProcessorState) -> None:
        """Continue from `state` (an utterance was taken back): spacing and capitals as then."""
        self._pending = []
        self._held, self._session_started, self._utterance_started = state.held, state.session_started, False
        self._glue, self._capitalize_next = state.glue, state.capitalize_next
        self._lowercase_next, self._spoken_mark = state.lowercase_next, state.spoken_mark

    def end_utterance(self) -> str:
        out = self._drain(final=True) + self._held
        self._held = ""
        if self.options.trailing_space and self._utterance_started and not self._glue:
            out += " "
            self._glue = True
        self._utterance_started = False
        return out

    # ------------------------------------------------------------------ matching
    def _build_phrases(self) -> dict[tuple[str, ...], _Action]:
        phrases: dict[tuple[str, ...], _Action] = {}
        if self.options.remove_fillers:
            phrases.update({(w,): None for w in self.options.filler_words})
        if self.options.spoken_punctuation:
            phrases.update({c.words: c for c in SPOKEN_COMMANDS})
        for r in self.options.replacements:  # the user's list wins over built-in words
            phrases[_norm_words(r.spoken)] = r
        return phrases

    def _drain(self, final: bool) -> str:
        out: list[str] = []
        pending = self._pending
        i = 0
        while i < len(pending):
            tail = tuple(t.norm for t in pending[i:])
            if not final and tail in self._prefixes:
                break  # wait: the next delta may complete a phrase
            length = self._longest_match(tail)
            if length:
                out.append(self._apply(self._phrases[tail[:length]], pending[i : i + length]))
                i += length
            else:
                out.append(self._word(pending[i]))
                i += 1
        self._pending = pending[i:]
        return "".join(out)

    def _longest_match(self, norms: tuple[str, ...]) -> int:
        for length in range(len(norms), 0, -1):
            if norms[:length] in self._phrases:
                return length
        return 0

    # ------------------------------------------------------------------ output
    def _apply(self, action: _Action, tokens: list[_Token]) -> str:
        if action is None:
            self._drop_filler(tokens[0])
            return ""
        if isinstance(action, Replacement):
            first, last = tokens[0], tokens[-1]
            return self._word(_Token(first.space, first.opening, action.written, last.closing), user_text=True)
        return self._command(action, tokens)

    def _word(self, token: _Token, user_text: bool = False) -> str:
        if not token.word:  # punctuation on its own: it belongs to what came before
            # after a command Whisper's own mark is dropped: it guessed one for the spoken words
            # ("period." or "new paragraph." then ". The"), which the command already wrote
            if not (self._spoken_mark and _GUESSED_MARK.fullmatch(token.opening + token.closing)):
                self._held += token.opening + token.closing
            return ""
        self._spoken_mark = False
        word = token.word
        if self._lowercase_next and not user_text and _may_lowercase(word):
            word = word[0].lower() + word[1:]
        elif self._capitalize_next and self.options.capitalize_sentences:
            word = word[0].upper() + word[1:]
        self._capitalize_next = self._lowercase_next = False
        out = self._held + self._space(token.space) + token.opening + word
        self._held = token.closing
        return out

    def _command(self, command: SpokenCommand, tokens: list[_Token]) -> str:
        guessed = self._held + tokens[-1].closing  # Whisper's punctuation around the spoken word
        kept = "" if command.is_punctuation else self._held
        self._held = ""
        space = kept + ("" if command.attach_left else self._space(tokens[0].space))
        self._glue = command.attach_right
        self._spoken_mark = True
        self._mark_output()
        self._capitalize_next = command.ends_sentence
        self._lowercase_next = not command.ends_sentence and bool(_SENTENCE_END.search(guessed))
        return space + command.text

    def _drop_filler(self, token: _Token) -> None:
        if token.capitalized and not self._lowercase_next:
            self._capitalize_next = True  # it started a sentence: the next word does now
        if _SENTENCE_END.search(token.closing):
            self._held = self._held.rstrip(",;:") + token.closing.lstrip(",;: ")
        elif token.closing.startswith(",") and self._held == ",":
            self._held = ""  # "we should, uh, go": both commas marked the hesitation

    def _space(self, whisper_space: str) -> str:
        """The space before the next piece, per the spacing options and where we are."""
        glue = self._glue
        self._glue = False
        started, in_utterance = self._session_started, self._utterance_started
        self._mark_output()
        if glue:
            return ""
        if not started:
            return " " if self.options.space_at_start else ""
        if not in_utterance:
            return " " if self.options.space_between_utterances else ""
        return " " if whisper_space else ""

    def _mark_output(self) -> None:
        self._session_started = self._utterance_started = True


def _may_lowercase(word: str) -> bool:
    """Undo a capital Whisper gave only because it guessed a sentence end: not "I", not "NASA"."""
    return not _PRONOUN_I.match(word) and not (len(word) > 1 and word[1:2].isupper())

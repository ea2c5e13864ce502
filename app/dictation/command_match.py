"""Recognising a spoken command in a whole short utterance, by sound (Qt-free, pure functions).

A command is usually said on its own, between pauses, and a small model often writes it as
other words that sound alike ("scratch that" as "Crash note", "comma" as "come"). So the
utterance's words are turned into a simple phonetic spelling (`phonetic_key`: voiced and
voiceless consonants merged, vowels dropped) and compared with each
command phrase's spelling by edit distance, normalised by the phrase's length. Only a whole
utterance of at most `CommandOptions.max_words` words is matched, so a dictated sentence that
contains a command's words is text. "literal <words>" dictates the words themselves.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from app.dictation.spoken_commands import SPOKEN_COMMANDS, SpokenCommand

_NON_LETTERS = re.compile(r"[^a-z ]+")
_VOWELS = frozenset("aeiouy")
_DIGRAPHS = (
    ("tch", "X"),
    ("sch", "SK"),
    ("ch", "X"),
    ("sh", "X"),
    ("ph", "F"),
    ("th", "0"),
    ("ck", "K"),
    ("gh", ""),
    ("wh", "W"),
    ("qu", "KW"),
    ("kn", "N"),
    ("wr", "R"),
    ("mb", "M"),
)
_SOFTENED = {"c": "S", "g": "J"}  # before e, i, y
_VOWEL_CLASSES = {"a": "A", "e": "E", "i": "E", "y": "E", "o": "O", "u": "O"}
_LETTERS = {"b": "P", "c": "K", "d": "T", "g": "K", "q": "K", "v": "F", "x": "KS", "z": "S", "j": "J"}


class CommandKind(enum.Enum):
    """What a recognised command utterance asks for (see each value's comment)."""

    SCRATCH = "scratch"  # take back the last utterance
    DELETE_WORD = "delete_word"  # take back the last word
    CAP = "cap"  # write the words that follow with a capital letter
    ALL_CAPS = "all_caps"  # write the words that follow in upper case
    PUNCTUATION = "punctuation"  # a spoken punctuation or line-break command said alone
    LITERAL = "literal"  # write the words that follow as words, never as a command


@dataclass(frozen=True)
class CommandPhrase:
    """Saying `words` asks for `kind`; `punctuation` is the mark a PUNCTUATION phrase writes;
    `takes_words`: the phrase is followed by the words it applies to ("cap john");
    `sounds_like`: other spellings a small model writes for it, matched the same way."""

    words: str
    kind: CommandKind
    punctuation: SpokenCommand | None = None
    takes_words: bool = False
    sounds_like: tuple[str, ...] = ()


_SOUNDS_LIKE: dict[tuple[str, ...], tuple[str, ...]] = {("comma",): ("comment",)}
"""tiny.en writes "comma" said alone as "Comment" (a dictated "Comment." alone is rare)."""

EDIT_PHRASES: tuple[CommandPhrase, ...] = (
    CommandPhrase("scratch that", CommandKind.SCRATCH),
    CommandPhrase("undo that", CommandKind.SCRATCH),
    CommandPhrase("delete last word", CommandKind.DELETE_WORD),
    CommandPhrase("cap", CommandKind.CAP, takes_words=True),
    CommandPhrase("all caps", CommandKind.ALL_CAPS, takes_words=True),
)
SHORT_KEY = 3
"""Phonetic spellings this long or shorter match only exactly."""
LITERAL_WORD = "literal"
"""An utterance starting with this word writes the rest as words."""
LITERAL_PHRASE = CommandPhrase(LITERAL_WORD, CommandKind.LITERAL, takes_words=True)
DOT = "dot"

PHRASES: tuple[CommandPhrase, ...] = (
    *EDIT_PHRASES,
    *(
        CommandPhrase(" ".join(c.words), CommandKind.PUNCTUATION, c, sounds_like=_SOUNDS_LIKE.get(c.words, ()))
        for c in SPOKEN_COMMANDS
    ),
)
PREFIX_PHRASES: tuple[str, ...] = tuple(p.words for p in EDIT_PHRASES if p.takes_words)
"""The phrases the decoder scores as the start of a short utterance ("cap" in "Captain London."
or "Captain."): forced through the decoder, the phrase said scores near 0 per token; where
it scores at least `CommandOptions.min_prefix_score`, the decoder, made to start with it, writes
the words it applies to."""
SCORED_PHRASES: tuple[str, ...] = tuple(p.words for p in PHRASES if not p.takes_words and p.words != "dot dot dot")
"""The phrases the decoder scores against an utterance's audio: those with no words after them,
but "dot dot dot", whose repeated words predict each other, so that it scores well on any audio
("ellipsis" writes the same mark)."""
LITERAL_SCORED: tuple[str, ...] = tuple(f"{LITERAL_WORD} {words}" for words in SCORED_PHRASES)
""""literal" and each scored phrase: what an utterance that starts like "literal" is scored
against ("literal comma" is written "little comment." by tiny.en, every time)."""


@dataclass(frozen=True)
class CommandOptions:
    """How close an utterance must sound to a command phrase to be taken as one.

    `max_distance`: edits between the phonetic spellings, per letter of the phrase's spelling
    (0 = only exact sound-alikes); `max_words`: longer utterances are always text;
    `max_argument_words`: how many words "cap" / "all caps" apply to. Where the decoder scores
    the command phrases against the utterance's audio (`app.dictation.command_heard`), the best
    phrase is heard at `min_phrase_score` (mean log-probability per token) or more, and a text
    that only sounds like a phrase is that command only if the decoder also scores that phrase
    best, at `min_confirm_score` or more; a phrase that takes words ("cap") is heard at the start
    of an utterance at `min_prefix_score` or more. A phrase that ordinary speech never scores
    high is heard lower: `phrase_margin` above its best score on ordinary speech, down to
    `lowest_phrase_score` (`app.dictation.command_calibration`). Where the text sounds like one
    command and the decoder scores another best, the decoder's is taken only `overrule_margin`
    above its score of the text's. An utterance of at most `max_command_s` seconds is scored
    however many words it was written as (a slow "exclamation mark" can be written as six).
    """

    max_distance: float = 0.34
    max_words: int = 4
    max_argument_words: int = 2
    min_phrase_score: float = -3.5
    min_confirm_score: float = -5.0
    min_prefix_score: float = -4.0
    lowest_phrase_score: float = -7.0
    phrase_margin: float = 1.5
    overrule_margin: float = 1.0
    max_command_s: float = 2.5

    def __post_init__(self) -> None:
        if not 0.0 <= self.max_distance < 1.0:
            raise ValueError(f"max_distance must be in [0, 1), not {self.max_distance}")
        if self.max_words < 1 or self.max_argument_words < 1:
            raise ValueError("max_words and max_argument_words must be at least 1")
        if self.min_prefix_score > 0.0:
            raise ValueError(f"min_prefix_score is a log-probability (<= 0), not {self.min_prefix_score}")
        if self.overrule_margin < 0.0 or self.max_command_s < 0.0:
            raise ValueError(
                f"overrule_margin and max_command_s must be >= 0, not {self.overrule_margin} and {self.max_command_s}"
            )
        if self.phrase_margin < 0.0 or self.lowest_phrase_score > self.min_phrase_score:
            raise ValueError(
                "phrase_margin >= 0 and lowest_phrase_score <= min_phrase_score, not "
                f"{self.phrase_margin} and {self.lowest_phrase_score}"
            )
        if not self.min_confirm_score <= self.min_phrase_score <= 0.0:
            raise ValueError(
                "min_confirm_score <= min_phrase_score <= 0 (log-probabilities), not "
                f"{self.min_confirm_score} and {self.min_phrase_score}"
            )


@dataclass(frozen=True)
class CommandMatch:
    """A command heard: its phrase, the words it applies to (as written, may be empty), and the
    normalised distance between what was heard and the phrase (0 = same sound)."""

    phrase: CommandPhrase
    argument: str = ""
    distance: float = 0.0

    @property
    def kind(self) -> CommandKind:
        return self.phrase.kind


def phonetic_key(text: str, vowels: bool = False) -> str:
    """A simple phonetic spelling of `text` (all its words run together), e.g. "scratch that" ->
    "SKRX0T", "crash note" -> "KRXNT"; `vowels`: keep them, in three classes ("cap" -> "KAP",
    "keep" -> "KEP"), where the consonants alone say too little."""
    return "".join(_word_key(word, vowels) for word in normalised_words(text))


def normalised_words(text: str) -> list[str]:
    """Lower-case words of `text`, punctuation dropped ("Crash note." -> ["crash", "note"])."""
    return _NON_LETTERS.sub("", text.lower().replace("-", " ")).split()


def _word_key(word: str, vowels: bool) -> str:
    # a word's first vowel is dropped too: where the model splits words says little
    key: list[str] = []
    i = 0
    while i < len(word):
        digraph = next(((d, k) for d, k in _DIGRAPHS if word.startswith(d, i)), None)
        if digraph is not None:
            key.append(digraph[1])
            i += len(digraph[0])
            continue
        char = word[i]
        following = word[i + 1] if i + 1 < len(word) else ""
        if char in _SOFTENED and following in ("e", "i", "y"):
            key.append(_SOFTENED[char])
        elif char in "wh" and following not in _VOWELS:
            pass  # "w" and "h" are only heard before a vowel
        elif char not in _VOWELS:
            key.append(_LETTERS.get(char, char.upper()))
        elif vowels:
            key.append(_VOWEL_CLASSES[char])
        i += 1
    return "".join(k for n, k in enumerate(key) if n == 0 or k != key[n - 1])


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance (insertions, deletions, substitutions each cost 1)."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def sound_distance(heard: str, phrase: str) -> float:
    """Edits between the phonetic spellings of `heard` and `phrase`, per letter of the phrase's."""
    target = phonetic_key(phrase)
    return edit_distance(phonetic_key(heard), target) / max(1, len(target))


def match_command(
    utterance: str, options: CommandOptions | None = None, phrases: tuple[CommandPhrase, ...] = PHRASES
) -> CommandMatch | None:
    """The command `utterance` (a whole utterance's text) is, or None when it is dictated text."""
    options = options or CommandOptions()
    words = utterance.split()
    norms = normalised_words(utterance)
    dots = next((p for p in phrases if p.words == "dot dot dot"), None)
    if dots is not None and len(norms) >= 3 and set(norms) == {DOT}:  # often heard with a dot or two more
        return CommandMatch(dots)
    if not norms or len(norms) > options.max_words + (1 if norms[0] == LITERAL_WORD else 0):
        return None
    if norms[0] == LITERAL_WORD and len(words) > 1:
        return CommandMatch(LITERAL_PHRASE, " ".join(words[1:]))
    best: CommandMatch | None = None
    for phrase in phrases:
        found = _match_phrase(phrase, words, options)
        if found is not None and (best is None or found.distance < best.distance):
            best = found
    return best


def may_be_command(text: str, options: CommandOptions) -> bool:
    """True while an utterance's words so far (`text`) may still be a command: "literal" first,
    or at most `max_words` words. The gate holds such words back; past that they are text."""
    words = normalised_words(text)
    return words[:1] == [LITERAL_WORD] or len(words) <= options.max_words


def sounds_like_literal(word: str, options: CommandOptions) -> bool:
    """True where `word` (one written word) may be "literal" heard by a small model ("little",
    "literally")."""
    return _distance(phonetic_key(word), phonetic_key(LITERAL_WORD)) <= options.max_distance


def _match_phrase(phrase: CommandPhrase, words: list[str], options: CommandOptions) -> CommandMatch | None:
    size = len(phrase.words.split())
    if phrase.takes_words:
        # the argument is what the user wants written: its sound says nothing; the phrase's
        # words must sound exactly like it (one short word would match too much otherwise)
        argument = words[size:]
        if not argument or len(argument) > options.max_argument_words:
            return None
        heard = " ".join(words[:size])
        if phonetic_key(heard, vowels=True) != phonetic_key(phrase.words, vowels=True):
            return None
        return CommandMatch(phrase, " ".join(argument), 0.0)
    heard = phonetic_key(" ".join(words))
    distance = min(_distance(heard, phonetic_key(spelling)) for spelling in (phrase.words, *phrase.sounds_like))
    return CommandMatch(phrase, "", distance) if distance <= options.max_distance else None


def _distance(heard: str, target: str) -> float:
    """Edits per letter of `target`; a short key must be heard exactly or with one sound more at
    its end ("Koeland" for "colon"): any other edit in three letters turns "can" into "colon"
    and "but" into "period"."""
    if len(heard) < len(target) - 1:
        return 1.0  # more than one sound missing: "Scratch." alone is a word, not "scratch that"
    edits = edit_distance(heard, target)
    if len(target) > SHORT_KEY or edits == 0 or (edits == 1 and heard.startswith(target)):
        return edits / max(1, len(target))
    return 1.0

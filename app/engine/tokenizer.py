"""Whisper's tokenizer on the model's own `tokenizer.json` (the `tokenizers` library).

Special tokens are looked up by name, never by hard-coded id: `.en` and multilingual models
number them differently. Timestamp tokens follow `<|notimestamps|>` and are not in
tokenizer.json; each stands for 0.02 s (`TIME_PRECISION`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import cached_property

from tokenizers import Tokenizer

from app.engine.types import Task

TIME_PRECISION = 0.02  # seconds per timestamp token


log = logging.getLogger(__name__)


class TokenizerError(Exception):
    """The tokenizer file is missing, unreadable or does not match the model."""


def parse_tokenizer_json(tokenizer_json: str) -> Tokenizer:
    """The `tokenizers` tokenizer of a tokenizer.json text; `TokenizerError` when it does not parse."""
    try:
        return Tokenizer.from_str(tokenizer_json)
    except Exception as exc:  # the library raises plain Exception subclasses
        log.warning("tokenizer.json did not parse", exc_info=True)
        raise TokenizerError(f"cannot read tokenizer.json: {exc}") from None


def _byte_level_alphabet() -> dict[int, str]:
    """GPT-2's byte-to-character table, in which byte-level BPE stores its tokens (a space is "Ġ")."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    table = {b: chr(b) for b in printable}
    for n, b in enumerate(b for b in range(256) if b not in table):
        table[b] = chr(256 + n)
    return table


_BYTE_LEVEL = _byte_level_alphabet()


class WhisperTokenizer:
    """Encode and decode text, and name Whisper's special tokens."""

    def __init__(self, tokenizer_json: str | Tokenizer, multilingual: bool) -> None:
        """`tokenizer_json`: the text of tokenizer.json, or that text parsed (`parse_tokenizer_json`)."""
        self._tok = tokenizer_json if isinstance(tokenizer_json, Tokenizer) else parse_tokenizer_json(tokenizer_json)
        self.multilingual = multilingual
        for name in ("<|endoftext|>", "<|startoftranscript|>", "<|notimestamps|>"):
            if self._tok.token_to_id(name) is None:
                raise TokenizerError(f"tokenizer.json lacks the special token {name}")

    def special(self, name: str) -> int:
        token_id = self._tok.token_to_id(name)
        if token_id is None:
            raise TokenizerError(f"tokenizer has no token {name}")
        return int(token_id)

    @cached_property
    def eot(self) -> int:
        return self.special("<|endoftext|>")

    @cached_property
    def sot(self) -> int:
        return self.special("<|startoftranscript|>")

    @cached_property
    def sot_prev(self) -> int:
        return self.special("<|startofprev|>")

    @cached_property
    def no_timestamps(self) -> int:
        return self.special("<|notimestamps|>")

    @cached_property
    def timestamp_begin(self) -> int:
        return self.no_timestamps + 1

    @cached_property
    def no_speech(self) -> int:
        found = self._tok.token_to_id("<|nospeech|>")
        return int(found) if found is not None else self.special("<|nocaptions|>")

    @cached_property
    def language_tokens(self) -> dict[str, int]:
        """Language code -> token id, in the model's order (`<|en|>` ... before `<|translate|>`)."""
        first, last = self.sot + 1, self.special("<|translate|>")
        codes: dict[str, int] = {}
        for token_id in range(first, last):
            token = self._tok.id_to_token(token_id)
            if token and token.startswith("<|") and token.endswith("|>"):
                codes[token[2:-2]] = token_id
        return codes

    def sot_sequence(self, language: str | None, task: Task) -> list[int]:
        """[sot] for English-only models; [sot, language, task] for multilingual ones."""
        if not self.multilingual:
            return [self.sot]
        lang = language or "en"
        if lang not in self.language_tokens:
            raise TokenizerError(f"unknown language code {lang!r}")
        task_token = self.special("<|translate|>" if task is Task.TRANSLATE else "<|transcribe|>")
        return [self.sot, self.language_tokens[lang], task_token]

    def non_speech_specials(self) -> list[int]:
        """Specials that must never be sampled as text (openai/whisper `_get_suppress_tokens`)."""
        names = ("<|translate|>", "<|transcribe|>", "<|startoftranscript|>", "<|startoflm|>", "<|startofprev|>")
        return sorted({self.special(n) for n in names} | {self.no_speech})

    def encode(self, text: str) -> list[int]:
        return list(self._tok.encode(text, add_special_tokens=False).ids)

    def piece_id(self, text: str) -> int | None:
        """The id of the one text token written exactly `text` (" Schw"), or None."""
        token_id = self._tok.token_to_id("".join(_BYTE_LEVEL[b] for b in text.encode("utf-8")))
        return int(token_id) if token_id is not None and token_id < self.eot else None

    def decode(self, tokens: Sequence[int]) -> str:
        """Text of the text tokens; specials and timestamps are dropped."""
        text_tokens = [t for t in tokens if t < self.eot]
        return str(self._tok.decode(text_tokens, skip_special_tokens=False))

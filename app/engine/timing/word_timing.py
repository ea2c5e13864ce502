"""Word timestamps for a decoded window: tokens -> words with start/end times and probabilities.

`WindowWordAligner.align` is the engine function file transcription uses, and live dictation can
use as it is: a window's cross K/V (the encoder output), its text tokens and the number of mel
frames of real audio -> `Word`s with window-relative times. It runs one teacher-forced pass of the
decoder ([sot sequence, <|notimestamps|>, text..., <|endoftext|>], as openai/whisper
and faster-whisper do) and aligns its cross-attention (word_alignment.py).
"""

from __future__ import annotations

import string
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from app.engine.runtime.whisper_runtime import CrossAttention, WhisperRuntime
from app.engine.timing.word_alignment import attention_matrix, token_start_times
from app.engine.timing.word_refine import shift_for_lag, speech_mask, trim_to_speech
from app.engine.tokenizer import WhisperTokenizer
from app.engine.types import Word

PREPEND_PUNCTUATION = "\"'“¿([{-"
APPEND_PUNCTUATION = "\"'.。,，!！?？:：”)]}、"
SENTENCE_ENDS = ".。!！?？"
_NO_SPACE_LANGUAGES = frozenset({"zh", "yue", "ja", "th", "lo", "my"})


class WindowWordAligner:
    """Word times for windows decoded by one `WhisperRuntime` (its decoder session carries the
    alignment heads' attention)."""

    def __init__(self, runtime: WhisperRuntime) -> None:
        self.runtime = runtime
        self.tokenizer: WhisperTokenizer = runtime.tokenizer

    def align(
        self,
        cross: CrossAttention,
        sot_sequence: Sequence[int],
        text_tokens: Sequence[int],
        n_mel_frames: int,
        token_probs: Sequence[float] | None = None,
        language: str = "en",
        mel: NDArray[np.float32] | None = None,
    ) -> list[Word]:
        """Words of `text_tokens` (no specials, no timestamps) spoken in the window `cross`
        (batch 1) whose first `n_mel_frames` mel frames (10 ms each, <= 3000) are real audio.

        Times are seconds from the window start, probabilities the mean of the words' token
        probabilities (`token_probs`, one per text token; 1.0 where not given). Punctuation is
        merged into the neighbouring word. `mel` [n_mels, n_mel_frames], the window's log-mel
        without padding, lets word edges that fall in pauses move to the speech (word_refine.py)."""
        text = [int(t) for t in text_tokens if t < self.tokenizer.eot]
        if not text:
            return []
        tok = self.tokenizer
        sequence = [*sot_sequence, tok.no_timestamps, *text, tok.eot]
        cache = self.runtime.new_cache(1)
        _, _, weights = self.runtime.decode_with_alignment(np.array([sequence], dtype=np.int64), cache, cross)
        matrix = attention_matrix(weights[0], n_mel_frames)[len(sot_sequence) : -1]  # [len(text) + 1, frames]
        times = shift_for_lag(token_start_times(matrix))  # [len(text) + 1]: text tokens' starts, then eot's
        probs = list(token_probs) if token_probs is not None else [1.0] * len(text)
        words = words_from_tokens(tok, text, times, probs, language)
        if mel is not None:
            trim_to_speech(words, speech_mask(mel[:, :n_mel_frames]))
        return words


def words_from_tokens(
    tok: WhisperTokenizer,
    text: list[int],
    times: Sequence[float] | NDArray[np.float64],
    probs: Sequence[float],
    language: str,
) -> list[Word]:
    """Group tokens into words (a word ends where the next one starts, the last where eot starts)."""
    words = split_to_word_tokens(tok, text, language)
    out: list[Word] = []
    index = 0
    for word, tokens in words:
        end = index + len(tokens)
        probability = float(np.mean(probs[index:end])) if end > index else 0.0
        out.append(Word(word, float(times[index]), float(times[end]), probability, list(tokens)))
        index = end
    _clamp_sentence_boundaries(out)
    return merge_punctuation(out)


def split_to_word_tokens(tok: WhisperTokenizer, tokens: list[int], language: str) -> list[tuple[str, list[int]]]:
    """Tokens -> (word text, its tokens): split where a piece of text is complete unicode, then
    (languages with spaces) join pieces that neither start with a space nor are punctuation."""
    pieces: list[tuple[str, list[int]]] = []
    current: list[int] = []
    for token in tokens:
        current.append(token)
        decoded = tok.decode(current)
        if "\ufffd" not in decoded:
            pieces.append((decoded, current))
            current = []
    if current:
        pieces.append((tok.decode(current), current))
    if language in _NO_SPACE_LANGUAGES:
        return pieces
    words: list[tuple[str, list[int]]] = []
    for piece, piece_tokens in pieces:
        if not words or piece.startswith(" ") or piece.strip() in string.punctuation:
            words.append((piece, list(piece_tokens)))
        else:
            words[-1] = (words[-1][0] + piece, words[-1][1] + piece_tokens)
    return words


def merge_punctuation(words: list[Word]) -> list[Word]:
    """Opening punctuation joins the word after it, closing punctuation the word before (openai's
    rule; the word keeps its own times); the emptied entries are dropped."""
    following = len(words) - 1
    for i in range(len(words) - 2, -1, -1):
        before, after = words[i], words[following]
        if before.word.startswith(" ") and before.word.strip() in PREPEND_PUNCTUATION:
            after.word, after.tokens = before.word + after.word, before.tokens + after.tokens
            before.word, before.tokens = "", []
        else:
            following = i
    previous = 0
    for i in range(1, len(words)):
        before, after = words[previous], words[i]
        if not before.word.endswith(" ") and after.word in APPEND_PUNCTUATION:
            before.word, before.tokens = before.word + after.word, before.tokens + after.tokens
            after.word, after.tokens = "", []
        else:
            previous = i
    return [w for w in words if w.word]


def median_word_duration(words: Sequence[Word]) -> float:
    """The median non-zero word duration, at most 0.7 s (openai's cap), 0 with no words."""
    durations = [w.end - w.start for w in words if w.end > w.start]
    return min(0.7, float(np.median(durations))) if durations else 0.0


def _clamp_sentence_boundaries(words: list[Word]) -> None:
    """A word longer than twice the median next to a sentence end is cut to that length: the
    attention lingers over the pause there (openai/whisper's rule)."""
    max_duration = 2 * median_word_duration(words)
    if max_duration <= 0:
        return
    for i in range(1, len(words)):
        if words[i].end - words[i].start > max_duration:
            if words[i].word in SENTENCE_ENDS:
                words[i].end = words[i].start + max_duration
            elif words[i - 1].word in SENTENCE_ENDS:
                words[i].start = words[i].end - max_duration

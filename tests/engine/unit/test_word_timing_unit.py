"""Tokens to words (app/engine/timing/word_timing.py) against openai/whisper's timing.py: word
boundaries (split_tokens_on_spaces / on_unicode), the punctuation merge (merge_punctuations), the
sentence-boundary clamp; and the pause corrections of word_refine.py. The real tokenizer is read
from the bundled model's tokenizer.json; token times are made up (no model run)."""

from __future__ import annotations

import numpy as np
import pytest

from app.engine.timing.word_refine import ATTENTION_LAG_S, shift_for_lag, speech_mask, trim_to_speech
from app.engine.timing.word_timing import (
    median_word_duration,
    merge_punctuation,
    split_to_word_tokens,
    words_from_tokens,
)
from app.engine.tokenizer import WhisperTokenizer
from app.engine.types import Word


def words_of(tok: WhisperTokenizer, text: str, language: str = "en") -> list[str]:
    return [w for w, _ in split_to_word_tokens(tok, tok.encode(text), language)]


def test_a_word_starts_at_a_space_or_a_punctuation_mark(tokenizer: WhisperTokenizer) -> None:
    assert words_of(tokenizer, " Hello, world.") == [" Hello", ",", " world", "."]
    # Pieces without a leading space join the word before them: "Qu" + "oted", "words".
    assert words_of(tokenizer, ' "Quoted" (words) unbelievably') == \
        [' "Quoted', '"', " (words", ")", " unbelievably"]
    assert words_of(tokenizer, " Smith's dog") == [" Smith's", " dog"]


def test_every_token_lands_in_exactly_one_word_in_order(tokenizer: WhisperTokenizer) -> None:
    tokens = tokenizer.encode(' Mr. Smith\'s "unbelievable" café, 3.5 kg!')
    split = split_to_word_tokens(tokenizer, tokens, "en")
    assert [t for _, word_tokens in split for t in word_tokens] == tokens
    assert "".join(w for w, _ in split) == tokenizer.decode(tokens)


def test_a_character_split_over_tokens_is_not_cut_in_half(tokenizer: WhisperTokenizer) -> None:
    """The emoji is two byte-level tokens; neither alone decodes to a character."""
    split = split_to_word_tokens(tokenizer, tokenizer.encode(" 😀 café"), "en")
    assert [w for w, _ in split] == [" 😀", " café"]
    assert len(split[0][1]) == 2


def test_languages_without_spaces_get_one_word_per_whole_character_group(tokenizer: WhisperTokenizer) -> None:
    pieces = words_of(tokenizer, "こんにちは世界", "ja")
    assert "".join(pieces) == "こんにちは世界"
    assert "\ufffd" not in "".join(pieces)
    assert pieces[:3] == ["こ", "ん", "に"]
    assert len(pieces) > 3  # English rules would have made it one word


def test_merge_punctuation_follows_openai() -> None:
    """Opening marks (after a space) join the next word, closing marks the word before; each
    word keeps its own times and probability."""
    words = [Word(' "', 0.0, 0.1, 0.5, [1]), Word("Hi", 0.1, 0.4, 0.9, [2]), Word('"', 0.4, 0.5, 0.4, [3]),
             Word(" there", 0.5, 0.9, 0.8, [4]), Word(".", 0.9, 1.0, 0.7, [5])]
    merged = merge_punctuation(words)
    assert [(w.word, w.tokens) for w in merged] == [(' "Hi"', [1, 2, 3]), (" there.", [4, 5])]
    assert [(w.start, w.end, w.probability) for w in merged] == [(0.1, 0.4, 0.9), (0.5, 0.9, 0.8)]


def test_a_closing_mark_after_a_word_ending_in_a_space_stays_on_its_own() -> None:
    words = [Word(" a ", 0.0, 0.1, 1.0, [1]), Word(".", 0.1, 0.2, 1.0, [2])]
    assert [w.word for w in merge_punctuation(words)] == [" a ", "."]


def test_words_from_tokens_times_each_word_from_its_first_token_to_the_next_words_start(
        tokenizer: WhisperTokenizer) -> None:
    text = tokenizer.encode(" Hello, world.")  # 4 tokens: " Hello" "," " world" "."
    times = [0.0, 0.5, 0.6, 1.0, 1.1]  # each token's start, then the end of text's
    words = words_from_tokens(tokenizer, text, times, [0.9, 0.5, 0.7, 0.3], "en")
    assert [(w.word, w.start, w.end, w.tokens) for w in words] == \
        [(" Hello,", 0.0, 0.5, text[:2]), (" world.", 0.6, 1.0, text[2:])]
    assert [w.probability for w in words] == [0.9, 0.7]


def test_a_long_word_after_a_sentence_end_is_cut_to_twice_the_median(tokenizer: WhisperTokenizer) -> None:
    """openai's hack: the attention lingers over the pause after a full stop."""
    text = tokenizer.encode(" Hello. Then go")  # " Hello" "." " Then" " go"
    assert len(text) == 4
    times = [0.0, 0.3, 0.4, 2.0, 2.3]  # " Then" would last 1.6 s
    words = words_from_tokens(tokenizer, text, times, [1.0] * 4, "en")
    # durations 0.3, 0.1, 1.6, 0.3: median 0.3, so " Then" keeps its last 0.6 s.
    assert [w.word for w in words] == [" Hello.", " Then", " go"]
    assert [(w.start, w.end) for w in words] == [(0.0, 0.3), (pytest.approx(1.4), 2.0), (2.0, 2.3)]


def test_median_word_duration_ignores_empty_words_and_is_capped_at_0_7_s() -> None:
    assert median_word_duration([]) == 0.0
    assert median_word_duration([Word("a", 1.0, 1.0, 1.0), Word("b", 0.0, 0.2, 1.0), Word("c", 0.0, 0.4, 1.0)]) \
        == pytest.approx(0.3)
    assert median_word_duration([Word("a", 0.0, 3.0, 1.0)]) == 0.7


def test_the_attention_lag_moves_times_earlier_but_never_before_zero() -> None:
    out = shift_for_lag(np.array([0.0, 0.05, 1.0]))
    np.testing.assert_allclose(out, [0.0, 0.0, 1.0 - ATTENTION_LAG_S])


def quiet_loud_quiet_mel(quiet_s: float, loud_s: float, after_s: float) -> np.ndarray:
    """[80, frames] log-mel: -1.5 when quiet, 0.5 when loud (10 ms frames)."""
    frames = [-1.5] * round(quiet_s * 100) + [0.5] * round(loud_s * 100) + [-1.5] * round(after_s * 100)
    return np.tile(np.array(frames, dtype=np.float32), (80, 1))


def test_speech_mask_marks_the_loud_frames_and_ignores_a_click() -> None:
    mel = quiet_loud_quiet_mel(0.5, 1.0, 0.5)
    mel[:, 20:22] = 0.5  # a 20 ms click in the leading silence
    loud = speech_mask(mel)
    assert loud.shape == (200,)
    assert not loud[:45].any() and loud[55:145].all() and not loud[155:].any()
    assert speech_mask(np.zeros((80, 100), dtype=np.float32)).all()  # no contrast: nothing to learn


def test_word_edges_in_a_pause_move_to_where_the_speech_starts_and_ends() -> None:
    loud = speech_mask(quiet_loud_quiet_mel(0.5, 1.0, 0.5))
    first = Word(" late", 0.1, 0.9, 1.0)  # starts 0.4 s early, in the silence
    last = Word(" long", 1.2, 1.9, 1.0)  # ends 0.4 s late
    inside = Word(" in", 0.7, 0.8, 1.0)
    silent = Word(" gone", 0.0, 0.3, 1.0)  # no loud frame: left as it is
    trim_to_speech([first, last, inside, silent], loud)
    assert abs(first.start - 0.5) <= 0.03 and first.end == 0.9
    assert last.start == 1.2 and abs(last.end - 1.5) <= 0.03
    assert (inside.start, inside.end) == (0.7, 0.8)
    assert (silent.start, silent.end) == (0.0, 0.3)

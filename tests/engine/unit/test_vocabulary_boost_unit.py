"""The vocabulary boost (app/engine/decoding/vocabulary_boost.py) on hand-made logits, with the
real tiny.en tokenizer: which tokens get the bonus after which sampled tokens.

A token that opens a listed word (its own first token, or one with at least three of its letters)
gets half the bonus anywhere;
once the row has written the start of a listed word, in whatever pieces, every token that
continues its text gets the whole bonus; a word just written gets no push to start again;
forbidden tokens stay forbidden."""

from __future__ import annotations

import numpy as np
import pytest

from app.engine.decoding.vocabulary_boost import VocabularyBoost, spellings
from app.engine.tokenizer import WhisperTokenizer

BOOST = 4.0


@pytest.fixture
def boost(tokenizer: WhisperTokenizer) -> VocabularyBoost:
    return VocabularyBoost(tokenizer, ["Schwarzkopf", "kubectl", "Siobhan Okonkwo"], BOOST, tokenizer.eot)


def bonus(boost: VocabularyBoost, tokenizer: WhisperTokenizer, sampled: list[int]) -> dict[int, float]:
    """The tokens whose logit changed after `sampled`, with the amount added."""
    logits = np.zeros((1, tokenizer.eot + 10), dtype=np.float32)
    boost.apply(logits, [sampled])
    return {int(i): float(logits[0, i]) for i in np.flatnonzero(logits[0])}


def test_spellings_are_mid_sentence_and_capitalised_when_written_lower() -> None:
    assert spellings("kubectl") == [" kubectl", " Kubectl"]
    assert spellings(" Schwarzkopf ") == [" Schwarzkopf"]
    assert spellings("  ") == []


def test_word_starts_get_half_the_bonus(boost: VocabularyBoost,
                                                          tokenizer: WhisperTokenizer) -> None:
    starts = bonus(boost, tokenizer, tokenizer.encode(" The invoice from"))
    assert set(starts.values()) == {BOOST / 2}
    written = {tokenizer.decode([t]) for t in starts}
    assert {" Schwarz", " Schw", " Sch", " Kub"} <= written  # three letters or more
    assert " Si" in written  # " Siobhan"'s own first token, though it has two letters
    assert not {" S", " Sc", " K"} & written  # too common to push everywhere
    listed = (" Schwarzkopf", " kubectl", " Kubectl", " Siobhan Okonkwo")
    assert all(any(s.startswith(w) for s in listed) for w in written), written


def test_a_started_word_is_continued_in_any_pieces(boost: VocabularyBoost, tokenizer: WhisperTokenizer) -> None:
    pieces = tokenizer.encode(" Schwarzkopf")  # " Schwarz" "k" "op" "f"
    for depth in range(1, len(pieces)):
        added = bonus(boost, tokenizer, tokenizer.encode(" invoice from") + pieces[:depth])
        assert added[pieces[depth]] == BOOST
    other_spelling = [tokenizer.piece_id(" Schw"), tokenizer.piece_id("ar")]  # the model's own pieces
    assert None not in other_spelling
    added = bonus(boost, tokenizer, other_spelling)  # type: ignore[arg-type]
    assert added[tokenizer.piece_id("z")] == BOOST  # type: ignore[index]
    assert tokenizer.piece_id("s") not in added  # "Schwars" is not a listed word


def test_a_phrase_is_followed_across_its_space(boost: VocabularyBoost, tokenizer: WhisperTokenizer) -> None:
    phrase = tokenizer.encode(" Siobhan Okonkwo")
    first_name = tokenizer.encode(" Siobhan")
    assert phrase[: len(first_name)] == first_name  # the surname's pieces follow the first name's
    added = bonus(boost, tokenizer, first_name)
    assert added[phrase[len(first_name)]] == BOOST


def test_a_word_just_written_gets_no_push_to_start_again(boost: VocabularyBoost, tokenizer: WhisperTokenizer) -> None:
    added = bonus(boost, tokenizer, tokenizer.encode(" from Schwarzkopf"))
    assert not any(value == BOOST / 2 for value in added.values())


def test_a_timestamp_ends_the_match(boost: VocabularyBoost, tokenizer: WhisperTokenizer) -> None:
    pieces = tokenizer.encode(" Schwarzkopf")
    after_timestamp = bonus(boost, tokenizer, [pieces[0], tokenizer.timestamp_begin + 3])
    assert pieces[1] not in after_timestamp or after_timestamp[pieces[1]] < BOOST


def test_forbidden_tokens_stay_forbidden_and_rows_are_independent(boost: VocabularyBoost,
                                                                  tokenizer: WhisperTokenizer) -> None:
    pieces = tokenizer.encode(" Schwarzkopf")
    logits = np.zeros((2, tokenizer.eot + 10), dtype=np.float32)
    logits[0, pieces[1]] = -np.inf
    logits[1, pieces[0]] = -np.inf
    boost.apply(logits, [pieces[:1], []])
    assert np.isneginf(logits[0, pieces[1]]) and np.isneginf(logits[1, pieces[0]])
    assert logits[1, pieces[1]] == 0.0  # the second row has started no word


def test_no_words_change_nothing(tokenizer: WhisperTokenizer) -> None:
    empty = VocabularyBoost(tokenizer, [" ", ""], BOOST, tokenizer.eot)
    logits = np.ones((1, tokenizer.eot + 10), dtype=np.float32)
    empty.apply(logits, [[]])
    assert empty.empty and (logits == 1.0).all()

"""Error rates with numbers worked out by hand (comments show the alignment)."""

from __future__ import annotations

import random

import pytest

from app.engine.wer import char_error_rate, edit_distance, normalize, word_error_rate


def textbook_edit_distance(a: list[int], b: list[int]) -> int:
    """The full-table Levenshtein distance, as a reference for the vectorised one."""
    table = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            table[i][j] = min(
                table[i - 1][j] + 1,
                table[i][j - 1] + 1,
                table[i - 1][j - 1] + (a[i - 1] != b[j - 1]),
            )
    return table[-1][-1]


@pytest.mark.parametrize(
    ("a", "b", "distance"),
    [
        ("kitten", "sitting", 3),  # k->s, e->i, +g
        ("flaw", "lawn", 2),  # -f, +n
        ("", "abc", 3),
        ("abc", "", 3),
        ("same", "same", 0),
    ],
)
def test_edit_distance_known_values(a: str, b: str, distance: int) -> None:
    assert edit_distance(a, b) == distance


def test_edit_distance_agrees_with_the_textbook_table() -> None:
    rng = random.Random(11)
    for _ in range(200):
        a = [rng.randrange(4) for _ in range(rng.randrange(12))]
        b = [rng.randrange(4) for _ in range(rng.randrange(12))]
        assert edit_distance(a, b) == textbook_edit_distance(a, b), (a, b)


def test_wer_counts_substitutions_and_deletions() -> None:
    # the cat SAT on THE mat / the cat SIT on *** mat: 1 substitution + 1 deletion, 6 words
    assert word_error_rate(["The cat sat on the mat."], ["the cat sit on mat"]) == pytest.approx(
        100 * 2 / 6
    )


def test_wer_counts_insertions_and_can_exceed_100() -> None:
    # hello *** **** world: 2 insertions over 2 reference words
    assert word_error_rate(["hello world"], ["hello big wide world"]) == pytest.approx(100.0)
    assert word_error_rate(["yes"], ["no no no"]) == pytest.approx(300.0)


def test_wer_is_corpus_level_not_a_mean_of_clips() -> None:
    # clip 1: 0 errors / 4 words; clip 2: e->x and -f = 2 errors / 2 words. 2 / 6, not 50 %.
    refs = ["a b c d", "e f"]
    hyps = ["a b c d", "x"]
    assert word_error_rate(refs, hyps) == pytest.approx(100 * 2 / 6)


def test_english_normaliser_forgives_style_not_words() -> None:
    reference = "Twenty-five colours, Mr. Smith! It's done."
    hypothesis = "25 colors mister smith it is done"
    assert normalize(reference) == normalize(hypothesis) == "25 colors mister smith it is done"
    assert word_error_rate([reference], [hypothesis]) == 0.0
    # but a different word still counts: 1 substitution over 7 normalised words
    assert word_error_rate([reference], ["25 colors mister smith it is gone"]) == pytest.approx(
        100 / 7
    )


def test_jfk_sentence_matches_despite_punctuation() -> None:
    reference = (
        "And so my fellow Americans, ask not what your country can do for you, "
        "ask what you can do for your country."
    )
    hypothesis = (
        " And so, my fellow Americans: ask not what your country can do for you; "
        "ask what you can do for your country!"
    )
    assert word_error_rate([reference], [hypothesis]) == 0.0


def test_other_languages_use_the_basic_normaliser() -> None:
    assert normalize("Bonjour, le Monde! (rires)", "fr").split() == ["bonjour", "le", "monde"]
    # one substitution (monde -> mondes) over 3 words
    assert word_error_rate(["Bonjour, le Monde!"], ["bonjour le mondes"], "fr") == pytest.approx(
        100 / 3
    )


def test_cer_for_chinese() -> None:
    # 今天天气很好 (6 characters; the full stop is dropped) vs 今天天汽很好: 1 substitution
    assert char_error_rate(["今天天气很好。"], ["今天天汽很好"], "zh") == pytest.approx(100 / 6)
    # spaces the model puts between characters do not count
    assert char_error_rate(["今天天气很好"], ["今天 天气 很好"], "zh") == 0.0


def test_cer_for_japanese_counts_a_missing_character() -> None:
    # こんにちは (5) vs こんちは: 1 deletion
    assert char_error_rate(["こんにちは。"], ["こんちは"], "ja") == pytest.approx(100 / 5)


def test_empty_references() -> None:
    assert word_error_rate(["", "  "], ["", ""]) == 0.0
    with pytest.raises(ValueError, match="undefined"):
        word_error_rate([""], ["ghost words"])


def test_mismatched_lengths_are_rejected() -> None:
    with pytest.raises(ValueError, match="pair up"):
        word_error_rate(["a", "b"], ["a"])

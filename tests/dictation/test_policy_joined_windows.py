"""Joined windows with a scripted decoder (fast: no model; see test_policy_scripted.py for why the
decoder is scripted). An utterance that starts within `join_gap_s` of the previous one is
decoded in a window that still holds the previous utterance's audio."""

from __future__ import annotations

from test_policy_scripted import make_policy, s

from app.dictation.text import join_words

_DONE = [(0.0, 2.0, " It is done.")]


def test_a_joined_window_that_drops_the_new_utterance_is_decoded_alone() -> None:
    """On the reverberant TIMIT sentence after LJ001-0001 every decode of the joined window
    writes the finished sentence and stops, and the new sentence would be dropped whole. Once
    the new utterance has `unjoin_after_s` of audio, its own audio is decoded alone."""
    policy, decoder = make_policy([
        _DONE,
        _DONE,  # 0.5 s of the new utterance: too early to judge
        _DONE,  # 1.1 s: still nothing new, so the window is given up ...
        [(0.0, 1.1, " She had your dark suit")],  # ... and the utterance decoded alone
        [(0.0, 1.5, " She had your dark suit in greasy")],
    ], unjoin_after_s=1.0, unjoin_min_pause_s=0.5)
    policy.begin(0)
    policy.finish(s(2.0))
    policy.begin(s(2.5))
    assert policy.window_start == 0  # joined
    assert policy.decode(s(3.0)).tentative == []
    update = policy.decode(s(3.6))
    assert policy.window_start == s(2.5)
    assert decoder.windows_s == [2.0, 3.0, 3.6, 1.1]
    assert join_words(update.tentative) == " She had your dark suit"
    assert join_words(policy.finish(s(4.0)).committed) == ". She had your dark suit in greasy"
    assert join_words(policy.committed) == " It is done. She had your dark suit in greasy"


def test_a_joined_window_that_hears_the_new_words_is_kept() -> None:
    policy, decoder = make_policy([
        [(0.0, 2.0, " And so my fellow Americans.")],
        [(0.0, 3.6, " And so my fellow Americans, ask not")],
    ], unjoin_after_s=1.0)
    policy.begin(0)
    policy.finish(s(2.0))
    policy.begin(s(2.5))
    assert join_words(policy.finish(s(3.6)).committed) == ", ask not"
    assert policy.window_start == 0 and decoder.windows_s == [2.0, 3.6]


def test_a_joined_window_after_a_short_pause_is_kept_even_when_it_writes_nothing_new_yet() -> None:
    """Continuous speech (0.35 s pauses): the joined window goes on with the same sentence, and
    decoding each utterance alone gets more words wrong on the continuous session; only a pause of
    `unjoin_min_pause_s` or more lets the window be given up."""
    policy, decoder = make_policy([
        _DONE,
        _DONE,
        _DONE,  # 1.1 s of the new utterance and nothing new, but after a 0.3 s pause: kept
        [(0.0, 3.6, " It is done, and so is this")],
    ], unjoin_after_s=1.0, unjoin_min_pause_s=0.8)
    policy.begin(0)
    policy.finish(s(2.0))
    policy.begin(s(2.3))
    assert policy.decode(s(2.8)).tentative == []
    policy.decode(s(3.4))
    assert policy.window_start == 0
    assert decoder.windows_s == [2.0, 2.8, 3.4]


def test_a_sentence_said_again_after_a_short_pause_is_not_dropped() -> None:
    """A speaker who says a sentence again right after itself (the Harvard sentence said three
    times in speech2): tiny.en writes the joined window's two sentences as one, decode after
    decode, and the second would be lost. After a short pause the window is kept longer, but not
    for ever: once the new utterance has `unjoin_continuing_s` of audio it is decoded alone."""
    said = [(0.0, 2.0, " The birch canoe slid.")]
    policy, decoder = make_policy([
        said, said, said, said, said,  # 2.3-4.8 s: nothing new in the joined window
        [(0.0, 2.5, " The birch canoe slid on the smooth planks.")],  # the new utterance alone
    ], unjoin_after_s=1.0, unjoin_min_pause_s=0.8, unjoin_continuing_s=2.5)
    policy.begin(0)
    policy.finish(s(2.0))
    policy.begin(s(2.3))
    for end_s in (2.8, 3.4, 4.0):
        policy.decode(s(end_s))
        assert policy.window_start == 0  # too early to give the window up
    policy.decode(s(4.8))
    assert policy.window_start == s(2.3)
    assert decoder.windows_s == [2.0, 2.8, 3.4, 4.0, 4.8, 2.5]
    assert "smooth planks" in join_words(policy.finish(s(4.8)).committed)


def _after_pause(pause_s: float, second: list[tuple[float, float, str]]) -> str:
    """Commit " Ask what you can do for your country" (no mark), then after `pause_s` of silence
    the joined window's hypothesis `second`: the text committed for the new utterance."""
    policy, _ = make_policy([[(0.0, 2.0, " Ask what you can do for your country")], second])
    policy.begin(0)
    policy.finish(s(2.0))
    policy.begin(s(2.0 + pause_s))
    assert policy.window_start == 0  # joined
    return join_words(policy.finish(s(4.5)).committed)


def test_a_segment_that_starts_the_new_words_after_a_sentence_pause_starts_a_sentence() -> None:
    """tiny.en on JFK's "... for your country", 1.5 s of silence and TIMIT's "She had your dark
    suit" in one joined window: a new segment, but lower-case and no period before it."""
    country = (0.0, 2.0, " Ask what you can do for your country")
    assert _after_pause(1.2, [country, (3.2, 4.5, " she had your dark suit")]) == ". She had your dark suit"
    # the same words in the same segment: Whisper hears one sentence, whatever the pause
    one = [(0.0, 4.5, " Ask what you can do for your country she had your dark suit")]
    assert _after_pause(1.2, one) == " she had your dark suit"
    # a segment break after a pause shorter than `sentence_pause_s` (0.8 s): no period
    assert _after_pause(0.4, [country, (2.4, 4.5, " she had your dark suit")]) == " she had your dark suit"


def test_a_joined_window_whose_new_words_are_all_committed_is_kept() -> None:
    """AlignAtt commits the new utterance's words while it goes on; the decode at its end then
    writes nothing new, as a window that dropped the utterance does. Given up, the utterance
    decoded alone made every word new again: the noise 0 dB bench session committed the
    "Printing, in the only sense ..." sentence twice."""
    policy, decoder = make_policy([
        _DONE,
        [(0.0, 3.5, " It is done. So is this")],
        [(0.0, 4.0, " It is done. So is this")],
        [(0.0, 4.0, " It is done. So is this")],  # the end: nothing new, all of it committed
    ], unjoin_after_s=1.0, unjoin_min_pause_s=0.5)
    policy.begin(0)
    policy.finish(s(2.0))
    policy.begin(s(2.5))
    policy.decode(s(3.5))
    assert join_words(policy.decode(s(4.0)).committed) == ". So is this"
    assert policy.finish(s(4.2)).committed == []
    assert policy.window_start == 0 and decoder.windows_s == [2.0, 3.5, 4.0, 4.2]
    assert join_words(policy.committed) == " It is done. So is this"

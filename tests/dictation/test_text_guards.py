"""Word alignment, LocalAgreement prefix, repetition cutting and the hallucination verdicts."""

from __future__ import annotations

import itertools

from app.dictation.guards import GuardOptions, Verdict, cut_repetitions, judge_window
from app.dictation.text import HypothesisWord, align_committed, common_prefix, split_words, timed_words


def words(text: str) -> list[HypothesisWord]:
    return [HypothesisWord(" " + w, float(i), float(i) + 0.5) for i, w in enumerate(text.split())]


def test_timed_words_keep_the_split_and_take_the_aligner_times() -> None:
    """The aligner splits "well-known" in three pieces and times "[Music]": the policy's words
    stay as `split_words` makes them and take their times from the pieces their letters are in."""
    text = " A well-known [Music] tune."
    pieces = [(" A", 1.0, 1.2), (" well", 1.3, 1.6), ("-", 1.6, 1.6), ("known", 1.6, 2.0),
              (" [", 2.0, 2.0), ("Music", 2.0, 3.0), ("]", 3.0, 3.0), (" tune.", 3.1, 3.5)]
    got = timed_words(text, pieces, 0.0, 4.0)
    assert [w.text for w in got] == [w.text for w in split_words(text, 0.0, 4.0)]
    assert [(w.text.strip(), w.start, w.end) for w in got] == [("A", 1.0, 1.2), ("well-known", 1.3, 2.0),
                                                                ("tune.", 3.1, 3.5)]
    # letters that do not match up (a piece missing): the interpolated times stay
    assert timed_words(text, pieces[:3], 0.0, 4.0) == split_words(text, 0.0, 4.0)


def test_split_words_keeps_spacing_and_spreads_times_over_the_segment() -> None:
    got = split_words(" Hello there, world! [Music]", 10.0, 12.0)
    assert [w.text for w in got] == [" Hello", " there,", " world!"]
    assert got[0].start == 10.0 and got[-1].end == 12.0
    assert all(a.end == b.start for a, b in itertools.pairwise(got))


def test_common_prefix_ignores_case_and_punctuation() -> None:
    assert common_prefix(words("And so, my fellow"), words("and so my fellow Americans")) == 4
    assert common_prefix(words("ask not what"), words("asked not what")) == 0


def test_align_skips_exactly_the_committed_words() -> None:
    hyp = words("and so my fellow americans ask not")
    assert align_committed(hyp, words("And so my fellow Americans.")) == 5
    assert align_committed(hyp, []) == 0


def test_align_treats_a_changed_word_as_a_substitution() -> None:
    # committed "first", the new decode says "forced": one word consumed, nothing doubled
    assert align_committed(words("montreal forced a liner"), words("montreal first")) == 2


def test_align_skips_a_committed_word_the_new_decode_heard_as_two() -> None:
    """JFK's "And so my" committed, then the utterance's last decode writes "And so am I fellow
    Americans." with "am I" where "my" was: "I" is not new text ("my I fellow Americans")."""
    committed = [HypothesisWord(" And", 1.32, 1.65), HypothesisWord(" so", 1.65, 1.95),
                 HypothesisWord(" my", 1.95, 2.29)]
    times = [(" And", 1.32, 1.65), (" so", 1.65, 1.93), (" am", 1.93, 2.11), (" I", 2.11, 2.35),
             (" fellow", 2.35, 2.65), (" Americans.", 2.65, 2.99)]
    hyp = [HypothesisWord(*t) for t in times]
    assert align_committed(hyp, committed) == 4
    # the word after a substitution, centred after the committed word's end, stays new
    late = [*hyp[:3], HypothesisWord(" I", 2.25, 2.45), *hyp[4:]]
    assert align_committed(late, committed) == 3


def test_align_ignores_fillers_the_new_decode_dropped_or_added() -> None:
    hyp = words("here are more words and that should")
    assert align_committed(hyp, words("here are more words um")) == 4
    hyp = words("here are more words um and that")
    assert align_committed(hyp, words("here are more words")) == 5


def test_cut_repetitions_stops_a_decoding_loop_but_keeps_real_repeats() -> None:
    loop = words("thank you for watching thank you for watching thank you for watching "
                 "thank you for watching thank you for watching")
    assert len(cut_repetitions(loop, 3)) == 12
    real = words("here are some more words words words words and that")
    assert len(cut_repetitions(real, 3)) == len(real)


def test_judge_window() -> None:
    opts = GuardOptions()
    assert judge_window(0.02, -0.3, 1.2, 0.8, opts) is Verdict.ACCEPT
    assert judge_window(0.7, -1.2, 1.0, 0.8, opts) is Verdict.NO_SPEECH  # Whisper's own rule
    assert judge_window(0.85, -0.9, 0.6, 0.5, opts) is Verdict.NO_SPEECH  # music -> "Thank you."
    assert judge_window(0.1, -0.3, 3.1, 0.9, opts) is Verdict.LOOPING
    assert judge_window(0.02, -0.3, 1.2, 0.0, opts) is Verdict.NO_SPEECH  # VAD heard nothing


def test_an_unsure_window_the_vad_hears_as_speech_is_kept() -> None:
    """Speech in 0 dB noise: tiny.en decodes it at an average log-prob of -1.25 to -1.5 (no-speech
    probability 0.3-0.5) while the VAD hears 72-83 % of it as speech. The same confidence over a
    window the VAD hears little speech in (noise, music score 10 % or less) is still dropped."""
    options = GuardOptions()
    assert judge_window(0.43, -1.6, 1.1, 0.8, options) is Verdict.ACCEPT
    assert judge_window(0.43, -1.6, 1.1, 0.1, options) is Verdict.UNSURE


def test_a_window_the_vad_hears_little_of_with_a_fairly_high_no_speech_prob_is_dropped() -> None:
    """A real noise recording (speechbrain sb_noise5) decodes as "Thank you." at no-speech 0.74
    with a VAD share of 0.26, a cough as "Come on." at 0.59-0.66 (share 0.39-0.60): neither may
    be committed. Real speech windows score at most 0.58 with a share of 0.69 (the first second
    of an utterance): kept."""
    options = GuardOptions()
    assert judge_window(0.74, -0.64, 0.58, 0.26, options) is Verdict.NO_SPEECH
    assert judge_window(0.62, -0.78, 0.53, 0.45, options) is Verdict.NO_SPEECH
    assert judge_window(0.594, -0.81, 0.53, 0.39, options) is Verdict.NO_SPEECH  # the cough, half-frame VAD
    assert judge_window(0.58, -0.82, 0.6, 0.69, options) is Verdict.ACCEPT
    assert judge_window(0.66, -0.5, 0.6, 0.9, options) is Verdict.ACCEPT  # the VAD hears speech


def test_align_goes_by_time_when_the_decode_does_not_repeat_the_committed_words() -> None:
    """After a trim the window holds little of the committed words' audio and the decode does not
    repeat them: skipping one word per committed word would lose six new words."""
    def timed(text: str, start: float, step: float) -> list[HypothesisWord]:
        return [HypothesisWord(" " + w, start + step * i, start + step * (i + 1))
                for i, w in enumerate(text.split(" "))]
    committed = timed("quarter and plan the new website", 4.0, 0.3)  # ends at 5.8 s
    hyp = timed("I need $300 for the new laptop.", 6.2, 0.4)
    assert align_committed(hyp, committed) == 0
    # the same decode with a garbled repeat of the last committed words first
    garbled = [HypothesisWord(" web", 5.4, 5.6), HypothesisWord(" site", 5.6, 5.8), *hyp]
    assert align_committed(garbled, committed) == 2

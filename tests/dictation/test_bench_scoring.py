"""The dictation benchmark's scoring (bench/dictation_metrics.py): which utterance a committed
word is scored against. Scripted words and times, no model."""

from __future__ import annotations

import sys

from earshot_testing import REPO_ROOT

from app.engine.wer import word_error_rate

sys.path.insert(0, str(REPO_ROOT / "bench"))
from dictation_metrics import LiveRun, assign, split_by_reference, word_latencies

REFERENCES = ["And Mr. John Dashwood had then leisure.", "Printing, in the only sense.", "She had your dark suit."]
SPANS = [(1.0, 3.0), (4.5, 6.5), (8.0, 9.5)]


def live_run(words: list[tuple[str, float, float]]) -> LiveRun:
    return LiveRun(words, [], [], None, False, lambda s: s)  # type: ignore[arg-type]


# as a joined window times them: the second sentence's first words in the pause before it (4.5 s)
WORDS = [(" And", 1.0, 1.2), (" Mr", 1.2, 1.4), (". John", 1.4, 1.8), (" Dashwood", 1.8, 2.3), (" had", 2.3, 2.5),
         (" then", 2.5, 2.7), (" leisure", 2.7, 3.0), (". Printing", 3.0, 3.6), (" in", 3.6, 3.8),
         (" the", 3.8, 4.1), (" only", 4.6, 5.0), (" sense", 5.0, 6.4), (". She", 8.0, 8.3), (" had", 8.3, 8.5),
         (" your", 8.5, 8.7), (" dark", 8.7, 9.0), (" suit.", 9.0, 9.4)]


def test_words_timed_in_the_pause_before_their_sentence_are_scored_with_it() -> None:
    """Split by estimated time, 'Printing in the' counted as inserted into the first sentence and
    missing from the second (WER 25 % for a transcript without an error); split by alignment,
    every word is scored against its own sentence."""
    by_time = assign(live_run(WORDS), SPANS, 1.5)
    assert word_error_rate(REFERENCES, by_time) > 20.0  # what the benchmark reported before
    pieces = split_by_reference(live_run(WORDS), REFERENCES, SPANS, 1.5)
    assert [p.strip() for p in pieces] == ["And Mr. John Dashwood had then leisure.", "Printing in the only sense.",
                                           "She had your dark suit."]
    assert word_error_rate(REFERENCES, pieces) == 0.0


def test_an_utterance_live_dropped_gets_no_words_of_its_neighbours() -> None:
    """The second sentence was not committed at all: its piece is empty (a dropped utterance)."""
    words = [w for w in WORDS if not 3.0 <= w[1] < 8.0]
    pieces = split_by_reference(live_run(words), REFERENCES, SPANS, 1.5)
    assert pieces[1] == ""
    assert word_error_rate([REFERENCES[0], REFERENCES[2]], [pieces[0], pieces[2]]) == 0.0


def test_formatting_the_live_text_adds_is_told_apart_from_formatting_it_lost() -> None:
    from dictation_metrics import formatting_added, raw_wer
    offline = "this is the acoustic corpus I'm talking fast Printing, in the only sense One, two"
    live = "This is the acoustic corpus. I'm talking fast. Printing in the only sense 1, two"
    words = len(offline.split())
    assert raw_wer([offline], [live]) == 100 * 5 / words  # This, corpus., fast., Printing, 1,
    assert formatting_added(offline, live) == 100 * 3 / words  # the lost comma and "1," are not added


def test_a_word_is_not_timed_against_the_same_word_said_elsewhere() -> None:
    """The robustness session says the same sentences under each condition: "She had" at 8 s is
    not scored against the reference's "She had" said 40 s later."""
    run = LiveRun([(" She", 8.0, 8.3), (" had", 8.3, 8.5)], [(9.0, 0.0), (9.0, 0.0)], [], None, False,  # type: ignore[arg-type]
                  lambda s: s)
    assert word_latencies(run, [("She", 48.3), ("had", 48.5)]) == ([], 0)
    assert word_latencies(run, [("She", 8.3), ("had", 8.5)])[1] == 2


def test_each_reading_of_a_repeated_sentence_is_timed_against_its_own_reading() -> None:
    """The same sentence read twice, 40 s apart, the first reading committed only in part:
    difflib's longest match pairs the whole second reading with the first one (40 s apart, so
    dropped), and before the split in time no word of either reading was timed."""
    sentence = ["She", "had", "your", "dark", "suit"]
    ref = [(w, 8.3 + 0.2 * k) for k, w in enumerate(sentence)] + [(w, 48.3 + 0.2 * k) for k, w in enumerate(sentence)]
    words = [(f" {w}", end - 0.2, end) for w, end in ref[:3] + ref[5:]]
    run = LiveRun(words, [(end + 0.5, 0.0) for _, _, end in words], [], None, False,  # type: ignore[arg-type]
                  lambda s: s)
    latencies, matched = word_latencies(run, ref)
    assert matched == 8
    assert latencies == [0.5] * 8

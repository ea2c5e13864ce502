"""The command benchmark's scoring (bench/commands.py): what counts as a recognised command and
as a false trigger. Texts only, no model."""

from __future__ import annotations

import re
import sys

from earshot_testing import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "bench"))
from commands import command_set, false_triggers, recognised

PHRASES = {said: phrase for phrase, said in command_set()}


def test_a_command_counts_only_with_its_own_kind_mark_and_words() -> None:
    assert recognised(PHRASES["scratch that"], "scratch that", "Crash note.")
    assert recognised(PHRASES["comma"], "comma", "Come.")
    assert not recognised(PHRASES["colon"], "colon", "Come.")  # a command, but the wrong mark
    assert recognised(PHRASES["cap london"], "cap london", "Cap London.")
    assert not recognised(PHRASES["all caps nasa"], "all caps nasa", "All caps. Yes.")  # the wrong word


def test_false_triggers_count_the_utterances_taken_for_commands() -> None:
    text = "We met at noon. Scratch that. Then we left for the station."
    count, words, hits, which = false_triggers([text], re.compile(r"(?<=[.!?])\s+"))
    assert (count, words, hits, which) == (3, 12, 1, ["Scratch that."])
    stretches, _, stress_hits, _ = false_triggers(["scratch that now"], None)
    assert stretches == 3 + 2 + 1 and stress_hits == 2  # "scratch that", "scratch that now"

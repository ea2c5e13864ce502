"""Which words of a hypothesis' uncommitted tail the policy may commit now.

Two rules, both applied to the prefix the last `agreement` hypotheses agree on (agreement 1 =
the latest hypothesis alone):

- `LOCAL_AGREEMENT` (whisper_streaming's rule, with a margin): agreed words ending within
  `commit_margin_s` of the end of the audio stay tentative. The margin is fixed because word
  times are estimates: interpolated from character positions, the first decodes of an
  utterance hear a fraction of a word and may agree on a guess.
- `ALIGN_ATT` (after SimulStreaming's AlignAtt): a word is committed only while the decoder's
  attention for it stays away from the last `attention_margin_s` of audio. The words' times
  come from the alignment heads' cross-attention (`DecodeOptions.word_timestamps`, dynamic time
  warping over the heads' attention, app/engine/timing/word_timing.py): a word whose attention reaches
  into the unheard end is still being guessed; one whose attention ends before it was heard.
  Unlike SimulStreaming this runs on the finished greedy hypothesis (one extra teacher-forced
  decoder pass per decode), not inside the decoding loop.

AlignAtt then holds words back where the decoder itself says it is guessing: attention alone
commits such guesses before their utterance ends. LocalAgreement's margin already waits longer
than the first two holds need; the third applies to it too:

- An utterance with less than `min_commit_audio_s` of audio so far commits nothing before the
  VAD ends it (its end commits it whole, from the whole utterance): from under a second of
  audio Whisper writes what the start sounds like ("Have a..." for "And Mr. John").
- An agreed word that one of the agreeing hypotheses gives a probability (mean over its tokens)
  under `min_word_probability` stays tentative, with the words after it, until it ends
  `unsure_wait_s` before the end of the audio (by then more audio no longer changes it: a word
  the speaker slurs stays unsure). A committed guess breaks what follows: laughter decoded as
  "Ha ha ha." at a low probability, once committed, no longer matches the next decodes, and the
  words after it are lost. Guesses made before the rest of the sentence is heard are unsure too:
  "Americans asked" before "not" (with the rest Whisper writes "ask").
  Words without a measured probability (no word times) count as 1.
- An agreed word that the hypothesis before the agreeing ones wrote otherwise (not as its
  last word) stays tentative, with the words after it, for one more decode: two decodes agreeing
  right after one that heard something else is not yet agreement. tiny.en on the espeak clip
  "The weather today is sunny" writes "The weather today is", then "But when the today is
  sunny" twice, then "The" again: "But" is unsure, but it ends more than `unsure_wait_s` before
  the end of the audio, so only this hold keeps it back (test_streaming_replay). This hold
  applies to LocalAgreement too: in real time on a busy machine the decodes are further apart
  (the step grows with decode time), so three of them can agree on "But when the" past the
  margin.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from app.dictation.text import HypothesisWord


class CommitRule(enum.Enum):
    LOCAL_AGREEMENT = "local-agreement"
    ALIGN_ATT = "align-att"


class Hold(enum.Enum):
    """Why a word of the tail is not committed by a decode (the first rule that stops it)."""

    AGREEMENT = "agreement"  # the last `agreement` hypotheses do not agree on it yet
    MARGIN = "margin"  # it ends within the rule's margin of the end of the audio (attention, or the fixed margin)
    UNSURE = "unsure"  # it or a word before it is under `min_word_probability`
    CONTRADICTED = "contradicted"  # the hypothesis before the agreeing ones wrote it or a word before it otherwise
    FIRST_SECOND = "first-second"  # the utterance has less than `min_commit_audio_s` of audio


@dataclass
class HoldLog:
    """Which rules held each word of the session, by its position in the committed text (a
    tail word at position i of a decode is counted as committed word `committed + i`, which it
    becomes unless a later decode writes other words before it): `ever[k]` every rule that held
    word k in some decode, `last[k]` the rule that held it in the last decode before its commit."""

    ever: dict[int, set[Hold]] = field(default_factory=dict)
    last: dict[int, Hold] = field(default_factory=dict)

    def record(self, committed: int, first: int, reasons: Sequence[Hold]) -> None:
        """A decode held tail words `first`, `first + 1`, ... for `reasons`, with `committed`
        words committed before the tail."""
        for i, reason in enumerate(reasons):
            k = committed + first + i
            self.ever.setdefault(k, set()).add(reason)
            self.last[k] = reason


class CommitOptions(Protocol):
    """The `PolicyOptions` fields the commit rule reads (seconds; a probability in [0, 1])."""

    @property
    def commit_rule(self) -> CommitRule: ...
    @property
    def commit_margin_s(self) -> float: ...
    @property
    def attention_margin_s(self) -> float: ...
    @property
    def min_commit_audio_s(self) -> float: ...
    @property
    def min_word_probability(self) -> float: ...
    @property
    def unsure_wait_s(self) -> float: ...


def committable(
    tail: Sequence[HypothesisWord],
    agreed: int,
    audio_end_s: float,
    heard_s: float,
    agreeing: Sequence[Sequence[HypothesisWord]],
    options: CommitOptions,
    earlier: Sequence[HypothesisWord] = (),
) -> int:
    """How many leading words of `tail` (absolute times, s) to commit while the utterance goes
    on: of the first `agreed`, those before the rule's horizon (`audio_end_s` minus the rule's
    margin); none from a word that `earlier`, the hypothesis before the agreeing ones, wrote
    otherwise; with AlignAtt also only those before the first unsure word (in `tail` or in one of
    the earlier hypotheses' tails it agrees with, `agreeing`), and none while the utterance has
    `heard_s` < the minimum (see the module docstring)."""
    return _limits(tail, agreed, audio_end_s, heard_s, agreeing, options, earlier)[-1]


def holds(
    tail: Sequence[HypothesisWord],
    agreed: int,
    audio_end_s: float,
    heard_s: float,
    agreeing: Sequence[Sequence[HypothesisWord]],
    options: CommitOptions,
    earlier: Sequence[HypothesisWord] = (),
) -> list[Hold]:
    """Why each word of `tail` after the `committable` ones is not committed (same arguments)."""
    n_agreed, cut, cut_hold, n = _limits(tail, agreed, audio_end_s, heard_s, agreeing, options, earlier)
    out = []
    for i in range(n, len(tail)):
        if i >= n_agreed:
            out.append(Hold.AGREEMENT)
        elif cut_hold is Hold.FIRST_SECOND or i >= cut:
            out.append(cut_hold or Hold.MARGIN)
        else:
            out.append(Hold.MARGIN)
    return out


def _limits(
    tail: Sequence[HypothesisWord],
    agreed: int,
    audio_end_s: float,
    heard_s: float,
    agreeing: Sequence[Sequence[HypothesisWord]],
    options: CommitOptions,
    earlier: Sequence[HypothesisWord],
) -> tuple[int, int, Hold | None, int]:
    """(agreed words, where the unsure or contradicted words start, which of the two (or
    FIRST_SECOND), the words to commit)."""
    n_agreed = min(agreed, len(tail))
    cut: int | None = None
    cut_hold: Hold | None = None
    if options.commit_rule is CommitRule.LOCAL_AGREEMENT:
        horizon = audio_end_s - options.commit_margin_s
        cut = next((i for i in range(n_agreed) if _contradicted(tail, earlier, i)), None)
        cut_hold = Hold.CONTRADICTED
    elif heard_s < options.min_commit_audio_s:
        return n_agreed, 0, Hold.FIRST_SECOND, 0
    else:
        horizon = audio_end_s - options.attention_margin_s
        for i in range(n_agreed):
            if _unsure(tail, agreeing, i, audio_end_s, options):
                cut, cut_hold = i, Hold.UNSURE
                break
            if _contradicted(tail, earlier, i):
                cut, cut_hold = i, Hold.CONTRADICTED
                break
    if cut is None:
        cut, cut_hold = n_agreed, None
    n = cut
    while n and tail[n - 1].end > horizon:
        n -= 1
    return n_agreed, cut, cut_hold, n


def _unsure(
    tail: Sequence[HypothesisWord],
    agreeing: Sequence[Sequence[HypothesisWord]],
    i: int,
    audio_end_s: float,
    options: CommitOptions,
) -> bool:
    """HypothesisWord `i` of `tail` is under `min_word_probability` in some agreeing hypothesis, and ends
    within `unsure_wait_s` of the end of the audio."""
    if tail[i].end < audio_end_s - options.unsure_wait_s:
        return False
    lowest = min([tail[i].probability] + [t[i].probability for t in agreeing if i < len(t)])
    return lowest < options.min_word_probability


def _contradicted(tail: Sequence[HypothesisWord], earlier: Sequence[HypothesisWord], i: int) -> bool:
    """`earlier` has another word than `tail` at `i`, and not as its last word (a hypothesis'
    last word is often a guess at the word still being spoken: "after" before "afternoon")."""
    return i + 1 < len(earlier) and earlier[i].norm != tail[i].norm

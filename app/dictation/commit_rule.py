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
  warping over the heads' attention, app/engine/word_timing.py): a word whose attention reaches
  into the unheard end is still being guessed; one whose attention ends before it was heard.
  Unlike SimulStreaming this runs on the finished greedy hypothesis (one extra teacher-forced
  decoder pass per decode), not inside the decoding loop.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from app.dictation.text import Word


class CommitRule(enum.Enum):
    LOCAL_AGREEMENT = "local-agreement"
    ALIGN_ATT = "align-att"


def committable(tail: Sequence[Word], agreed: int, audio_end_s: float, rule: CommitRule,
                commit_margin_s: float, attention_margin_s: float) -> int:
    """How many leading words of `tail` (absolute times, s) to commit: of the first `agreed`,
    those before the rule's horizon (`audio_end_s` minus the rule's margin)."""
    margin = attention_margin_s if rule is CommitRule.ALIGN_ATT else commit_margin_s
    horizon = audio_end_s - margin
    n = min(agreed, len(tail))
    while n and tail[n - 1].end > horizon:
        n -= 1
    return n

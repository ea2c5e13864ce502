"""Agreement between the successive hypotheses of one utterance: the uncommitted tails of the
last decodes, and how many leading words of a new tail they all share (`PolicyOptions.agreement`
hypotheses must agree before the commit rule, commit_rule.py, may commit a word)."""

from __future__ import annotations

from app.dictation.text import HypothesisWord, common_prefix


class TailHistory:
    """The tails of the last decodes, after the words committed since dropped: `prev` the last
    one, `older` those before it (for agreement > 2, oldest first), `earlier` the hypothesis
    before the agreeing ones (commit_rule.py)."""

    def __init__(self, agreement: int) -> None:
        self.agreement = agreement
        self.prev: list[HypothesisWord] = []
        self.older: list[list[HypothesisWord]] = []
        self.earlier: list[HypothesisWord] = []

    def reset(self) -> None:
        """Forget every tail (a new utterance, or a window decoded anew)."""
        self.prev, self.older, self.earlier = [], [], []

    def agreeing(self) -> list[list[HypothesisWord]]:
        """The tails a new one is compared with (none when one hypothesis is enough)."""
        return [self.prev, *self.older] if self.agreement > 1 else []

    def agreed(self, tail: list[HypothesisWord]) -> int:
        """Words of `tail` that the last `agreement - 1` hypotheses also start with."""
        if self.agreement == 1:
            return len(tail)
        if self.agreement > 2 and len(self.older) < self.agreement - 2:
            return 0
        n = common_prefix(self.prev, tail)
        for older in self.older:
            n = min(n, common_prefix(older, tail))
        return n

    def advance(self, tail: list[HypothesisWord], n: int) -> None:
        """`tail` is the newest hypothesis and its first `n` words were committed."""
        keep = max(0, self.agreement - 2)
        tails = [t[n:] for t in [self.earlier, *self.older, self.prev]]
        self.earlier, self.older = tails[-keep - 1], tails[len(tails) - keep :]
        self.prev = tail[n:]

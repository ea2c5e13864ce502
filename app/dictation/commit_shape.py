"""How the streaming policy shapes words as it commits them: times, marks and capitals.

Words are committed with their estimated times kept non-decreasing (different hypotheses place
segment boundaries, and so interpolated word times, differently), a sentence start capitalised
after end punctuation, and the punctuation mark they end with held back: it stays out of the
committed text until the next words decide it ("Americans." at a pause becomes "Americans, ask
not"; the rules are sentence_shape.py's). `CommitShaper` holds what that decision needs between
commits: the held mark, the latest hypothesis' mark after the same word, the boundary of an
utterance whose first words are not committed yet, and the end of the previous utterance, which a
decode that hears both may use to write the mark between them (bridge_decode.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from app.dictation.bridge_decode import Bridge, PreviousEnd
from app.dictation.hypothesis import Hypothesis
from app.dictation.policy_options import PolicyOptions
from app.dictation.sentence_shape import UtteranceBoundary, ends_sentence, final_mark, mark_between
from app.dictation.text import HypothesisWord, capitalise_sentence_starts, split_trailing_mark


class CommitShaper:
    """The marks between one session's commits (see module docstring)."""

    def __init__(self, options: PolicyOptions) -> None:
        self.options = options
        self.held = ""  # the mark the committed text ends with, until the next words decide it
        self.decided: str | None = None  # the latest hypothesis' mark after that word
        # set by the policy's `begin` until the utterance's first words are committed
        self.boundary: UtteranceBoundary | None = None
        self.previous: PreviousEnd | None = None  # the last utterance's end, for `hear_both`

    def unjoin(self) -> None:
        """The utterance's joined window was given up: it is decoded alone."""
        if self.boundary is not None:
            self.boundary = UtteranceBoundary(self.boundary.pause_s, joined=False)

    def observe(self, hyp: Hypothesis, k: int, in_window: list[HypothesisWord]) -> None:
        """A new hypothesis whose uncommitted tail starts at word `k`: whether that starts a
        segment, and the mark it writes after the last committed word `in_window`."""
        if self.boundary is not None:  # its first words are not committed yet
            self.boundary = replace(self.boundary, new_segment=hyp.starts_segment(k))
        self.decided = None
        if k and in_window and hyp.words[k - 1].norm == in_window[-1].norm:
            self.decided = split_trailing_mark(hyp.words[k - 1].text)[1]

    def shape(
        self, words: list[HypothesisWord], committed: list[HypothesisWord], hear: Callable[[PreviousEnd], Bridge | None]
    ) -> None:
        """Shape `words` in place before they are appended to `committed`; `hear` decodes the
        previous utterance's end with the new audio where the boundary needs it (`_bridge_from`)."""
        last = committed[-1].end if committed else 0.0
        for i, w in enumerate(words):
            if w.start < last:
                words[i] = HypothesisWord(w.text, last, max(w.end, last))
            last = words[i].end
        if committed:
            words[0] = HypothesisWord(self._opening(words[0].text, hear), words[0].start, words[0].end)
        self.boundary = None
        words[:] = capitalise_sentence_starts(words)
        text, self.held = split_trailing_mark(words[-1].text)
        words[-1] = HypothesisWord(text, words[-1].start, words[-1].end)
        self.decided = None

    def flush(self) -> str:
        """The session ends: the mark to write after the last committed word (a period where the
        text stops mid-sentence, with `close_sentences`)."""
        mark, self.held = final_mark(self.held, self.options.close_sentences), ""
        return mark

    def _opening(self, first: str, hear: Callable[[PreviousEnd], Bridge | None]) -> str:
        """The first new word with the mark the held one becomes in front of it."""
        boundary, decided, o = self.boundary, self.decided, self.options
        previous = self._bridge_from()
        bridge = hear(previous) if previous is not None else None
        if bridge is not None and boundary is not None:  # it decides whether the sentence ends there
            boundary, first = bridge.boundary(boundary.pause_s), bridge.cased(first)
            decided = bridge.mark if ends_sentence(bridge.mark) != ends_sentence(self.held) else None
        mark, text = mark_between(self.held, decided, first, boundary, o.close_sentences, o.sentence_pause_s)
        return mark + text

    def _bridge_from(self) -> PreviousEnd | None:
        """The previous utterance's end to decode with the new words, for the first words of an
        utterance after a sentence pause (None: no such decode). A joined window holds the pause
        too, and Whisper writes a sentence end for the pause alone."""
        boundary, o = self.boundary, self.options
        if boundary is None or self.previous is None or not o.close_sentences:
            return None
        if boundary.joined and boundary.pause_s < o.sentence_pause_s:
            return None
        return self.previous

"""The streaming policy: agreement between re-decoded windows of one utterance.

While an utterance goes on, the worker calls `decode(end)` every step: the policy decodes the
window [window_start, end) (padded to 30 s by the engine), drops the words it already committed,
commits what the commit rule allows (commit_rule.py; AlignAtt by default) of the longest prefix
the last `agreement` hypotheses agree on (agreement.py), and keeps the rest as tentative; how
each window is decoded is prompted_decode.py's, how committed words are shaped (times, the mark
between utterances, capitals) commit_shape.py's.
`finish(end)` commits everything once the VAD says the utterance is over. Windows are trimmed at
committed segment boundaries so they stay well under 30 s. The policy is single-threaded and
knows nothing about devices: audio comes from `get_audio(start, stop)` in 16 kHz sample indices.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from app.dictation.agreement import TailHistory
from app.dictation.bridge_decode import Bridge, PreviousEnd, hear_both, previous_end
from app.dictation.commit_rule import HoldLog, committable, holds
from app.dictation.commit_shape import CommitShaper
from app.dictation.decoder_port import WindowDecoder
from app.dictation.guards import Verdict, judge_window
from app.dictation.hypothesis import Hypothesis, hypothesis_words
from app.dictation.policy_options import PolicyOptions, streaming_decode_options, unjoin_wait_s
from app.dictation.prompted_decode import PromptedDecoder
from app.dictation.rest_decode import decode_rest
from app.dictation.sentence_shape import UtteranceBoundary, ends_sentence
from app.dictation.text import HypothesisWord, align_committed, join_words
from app.engine.decoding.window_decoder import compression_ratio
from app.engine.types import SAMPLE_RATE, CancelToken

__all__ = ["PolicyOptions", "PolicyUpdate", "StreamingPolicy", "WindowDecoder", "streaming_decode_options"]

MAX_WINDOW = 30 * SAMPLE_RATE


@dataclass
class PolicyUpdate:
    """The result of one decode: newly committed words, the tentative tail, timing (s)."""

    committed: list[HypothesisWord]
    tentative: list[HypothesisWord]
    decode_s: float
    verdict: Verdict


class StreamingPolicy:
    """Window bookkeeping and the commit rule for one session (see module docstring)."""

    def __init__(
        self,
        decoder: WindowDecoder,
        get_audio: Callable[[int, int], NDArray[np.float32]],
        speech_ratio: Callable[[int, int], float],
        options: PolicyOptions | None = None,
        cancel: CancelToken | None = None,
        realtime: bool = True,
    ) -> None:
        self.decoder = decoder
        self.get_audio = get_audio
        self.speech_ratio = speech_ratio
        self.options = options = options or PolicyOptions()
        self.cancel = cancel
        self.window_start = 0  # absolute 16 kHz index of the current window
        self.last_decode_end = 0
        self.floor = 0  # no window may start before this (end of the previous utterance)
        self._utterance_start = 0  # absolute 16 kHz index where the current utterance's own audio starts
        self._unjoin_after_s = 0.0  # its window starts in the previous utterance (`begin`); 0: not given up
        self.committed: list[HypothesisWord] = []  # whole session
        self._in_window: list[HypothesisWord] = []  # committed words whose audio is in the window
        self.tails = TailHistory(options.agreement)  # the last decodes' uncommitted tails (agreement.py)
        self._last_words: list[HypothesisWord] = []  # the last decode's words, absolute times
        self.window_decode = PromptedDecoder(decoder, options, cancel, realtime)
        self.shaper = CommitShaper(options)  # times, marks and capitals of committed words (commit_shape.py)
        self.decode_seconds = 0.0
        self.decodes = 0
        self.trims = 0  # window starts moved forward at committed segment boundaries
        self.longest_window_s = 0.0
        self.hold_log = HoldLog()  # which commit-rule holds delayed which words (the benchmark reports it)

    # ------------------------------------------------------------------ utterances
    def begin(self, start: int) -> None:
        """A new utterance starts at absolute sample `start` (padding included)."""
        start = max(start, self.floor)
        gap = (start - self.floor) / SAMPLE_RATE
        length = (start - self.window_start) / SAMPLE_RATE
        joined = bool(self._in_window and gap <= self.options.join_gap_s and length <= self.options.trim_after_s)
        if not joined:
            self.window_start = start
            self._in_window = []
        self._utterance_start = start
        # `_utterance_hypothesis` gives a joined window up after this much new audio with nothing new
        self._unjoin_after_s = unjoin_wait_s(self.options, gap) if joined else 0.0
        self.shaper.boundary = UtteranceBoundary(gap, joined) if self.committed else None
        self.last_decode_end = start
        self.tails.reset()

    def decode(self, end: int, final: bool = False) -> PolicyUpdate:
        """Re-decode [window_start, end) and apply the commit rule to what the last `agreement`
        hypotheses agree on. `final`: `end` is where the VAD says speech ends, so `finish(end)`
        may commit this decode's words as they are: it decodes with `final_beam_size`."""
        forced = end - self.window_start > self.options.max_window_s * SAMPLE_RATE
        end = min(end, self.window_start + MAX_WINDOW)
        hyp, k, tail, verdict, decode_s = self._utterance_hypothesis(end, final)
        heard_s = (end - self._utterance_start) / SAMPLE_RATE
        rule_args = (
            tail,
            self.tails.agreed(tail),
            end / SAMPLE_RATE,
            heard_s,
            self.tails.agreeing(),
            self.options,
            self.tails.earlier,
        )
        n = by_rule = committable(*rule_args)
        if forced:
            n = hyp.words_before_last_segment(k, len(tail))
        first_held = max(n, by_rule)
        self.hold_log.record(len(self.committed), first_held, holds(*rule_args)[first_held - by_rule :])
        new = tail[:n]
        self._commit(new)
        self.tails.advance(tail, n)
        self._trim(hyp, k + n, forced)
        return PolicyUpdate(new, list(self.tails.prev), decode_s, verdict)

    def finish(self, end: int, skip: bool = False) -> PolicyUpdate:
        """The utterance ended at `end`: commit everything (re-using the last decode if it
        covered exactly this audio). `skip` drops a too-short blip without decoding it."""
        if skip and not self._in_window:
            new, decode_s, verdict = [], 0.0, Verdict.NO_SPEECH
        elif self.last_decode_end == end and self.decodes:
            new, decode_s, verdict = self.tails.prev, 0.0, Verdict.ACCEPT
        else:
            _, _, new, verdict, decode_s = self._utterance_hypothesis(min(end, self.window_start + MAX_WINDOW), True)
        if verdict is Verdict.ACCEPT:  # speech the decode left out (rest_decode.py)
            t0 = time.perf_counter()
            new = [
                *new,
                *decode_rest(
                    self.decoder, self.get_audio, self.speech_ratio, self._heard(), end, self.options, self.cancel
                ),
            ]
            rest_s = time.perf_counter() - t0  # counted in the compute ratio, like every decode
            decode_s, self.decode_seconds = decode_s + rest_s, self.decode_seconds + rest_s
        self._commit(new)
        self.tails.prev = []
        self.floor = max(self.floor, end)
        if self.options.bridge_s > 0 and self.committed:
            start = max(self.window_start, end - int(self.options.bridge_s * SAMPLE_RATE))
            self.shaper.previous = previous_end(self.get_audio(start, end).copy(), end, self.committed)
        return PolicyUpdate(list(new), [], decode_s, verdict)

    def flush(self) -> PolicyUpdate:
        """The session ends: commit the held mark after the last committed word (a period where
        the text stops mid-sentence, with `close_sentences`)."""
        mark = self.shaper.flush()
        if not mark or not self.committed:
            return PolicyUpdate([], [], 0.0, Verdict.ACCEPT)
        last = self.committed[-1]
        self.committed[-1] = HypothesisWord(last.text + mark, last.start, last.end)
        return PolicyUpdate([HypothesisWord(mark, last.end, last.end)], [], 0.0, Verdict.ACCEPT)

    def ends_open(self) -> bool:
        """The last decode left tentative words that end mid-sentence (no . ? ! after the last;
        an ellipsis counts as unfinished)."""
        if not self.tails.prev:
            return False
        return not ends_sentence(self.tails.prev[-1].text.rstrip())

    def keep_from(self, now: int) -> int:
        """Oldest absolute sample the policy may still need at stream position `now`: the window
        start, or `now` once a pause is too long for the next utterance to join this window."""
        join_until = self.floor + int(self.options.join_gap_s * SAMPLE_RATE)
        if self._in_window and now <= join_until + SAMPLE_RATE:
            return self.window_start
        return now

    # ------------------------------------------------------------------ internals
    def _utterance_hypothesis(
        self, end: int, final: bool
    ) -> tuple[Hypothesis, int, list[HypothesisWord], Verdict, float]:
        """`_hypothesis`, but a joined window whose decode writes nothing after the committed words
        once the new utterance has `unjoin_after_s` of audio is given up: Whisper, hearing a
        finished sentence, a pause and new speech, can end the text with the old sentence and drop
        the new one whole (the reverberant TIMIT sentence after LJ001-0001). The utterance is then
        decoded alone, as offline hears it."""
        found = self._hypothesis(end, final)
        heard_s = (end - self._utterance_start) / SAMPLE_RATE
        if not self._unjoin_after_s or found[2] or heard_s < self._unjoin_after_s:
            return found
        self._unjoin_after_s = 0.0
        self.window_start, self._in_window = self._utterance_start, []
        self.tails.reset()
        self.shaper.unjoin()
        hyp, k, tail, verdict, decode_s = self._hypothesis(end, final)
        return hyp, k, tail, verdict, decode_s + found[4]

    def _hypothesis(
        self, end: int, final: bool = False
    ) -> tuple[Hypothesis, int, list[HypothesisWord], Verdict, float]:
        """Decode [window_start, end) (with the final-decode options if `final`): the hypothesis,
        where its uncommitted tail starts, the tail (empty unless the guards accept it), the
        verdict and the decode time in seconds."""
        audio = self.get_audio(self.window_start, end)
        self.longest_window_s = max(self.longest_window_s, audio.shape[0] / SAMPLE_RATE)
        t0 = time.perf_counter()
        before = self.committed[: len(self.committed) - len(self._in_window)]
        result = self.window_decode.decode(audio, final, before)
        decode_s = time.perf_counter() - t0
        self.decode_seconds += decode_s
        self.decodes += 1
        self.last_decode_end = end
        hyp = hypothesis_words(result, self.window_start, end, self.options.guards.max_ngram_repeats)
        self._last_words = hyp.words
        k = align_committed(hyp.words, self._in_window)
        tail = hyp.words[k:]
        self.shaper.observe(hyp, k, self._in_window)
        # the compression ratio of the new text only: the window also holds committed sentences,
        # and legitimately repeated ones would look like a decoding loop
        verdict = judge_window(
            result.no_speech_prob,
            result.avg_logprob,
            compression_ratio(join_words(tail)),
            self.speech_ratio(self.window_start, end),
            self.options.guards,
        )
        return hyp, k, tail if verdict is Verdict.ACCEPT else [], verdict, decode_s

    def _heard(self) -> list[HypothesisWord]:
        """The last decode's words, or the window's last committed word where the decode ends
        before it: a joined window over a finished sentence and a little new speech can decode as
        a few words of laughter placed early, and a rest counted from their end would decode the
        committed sentence again and commit it twice."""
        if self._in_window and (not self._last_words or self._last_words[-1].end < self._in_window[-1].end):
            return [self._in_window[-1]]
        return self._last_words

    def _commit(self, words: list[HypothesisWord]) -> None:
        """Append to the committed text, shaped as commit_shape.py says (times, marks, capitals)."""
        if not words:
            return
        self.shaper.shape(words, self.committed, self._hear_both)
        # the window wrote the new utterance's words: it did not drop them, so it is never given
        # up (decoded alone, words it committed would be new again and committed twice)
        self._unjoin_after_s = 0.0
        self.committed.extend(words)
        self._in_window.extend(words)

    def _hear_both(self, previous: PreviousEnd) -> Bridge | None:
        """One decode of the previous utterance's end and this one's audio (bridge_decode.py), for
        the mark between them where `shaper` needs it."""
        t0 = time.perf_counter()
        new_audio = self.get_audio(self._utterance_start, self.last_decode_end)
        bridge = hear_both(self.decoder, previous, new_audio, self.options, self.cancel)
        self.decode_seconds += time.perf_counter() - t0
        self.decodes += 1
        return bridge

    def _trim(self, hyp: Hypothesis, n_committed: int, forced: bool) -> None:
        """Move the window start to the end of the last fully committed segment."""
        length = (self.last_decode_end - self.window_start) / SAMPLE_RATE
        if length <= self.options.trim_after_s and not forced:
            return
        cut_seg = hyp.last_committed_segment(n_committed, forced)
        if cut_seg < 0:
            if forced and not hyp.words:  # nothing usable in a whole `max_window_s` of "speech": drop it
                self.window_start = self.last_decode_end - SAMPLE_RATE
                self._in_window = []
            return
        new_start = int(hyp.seg_end[cut_seg] * SAMPLE_RATE)
        if new_start <= self.window_start:
            return
        # what the next decode of the trimmed window should repeat first: this decode's words
        # after the cut (the committed ones), in this decode's own spelling
        self._in_window = hyp.words[hyp.seg_word_end[cut_seg] : n_committed]
        self.window_start = min(new_start, self.last_decode_end)
        self.trims += 1

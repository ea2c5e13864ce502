"""Decode one <= 30 s window with temperature fallback, and split its tokens into segments."""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from app.engine.decoding.logit_filters import (
    LogitFilter,
    SuppressAtBegin,
    SuppressTokens,
    TimestampRules,
    log_softmax,
)
from app.engine.decoding.loop import DecodeOutcome, DecodingLoop, SearchConfig, WindowPrompt
from app.engine.decoding.vocabulary_boost import VocabularyBoost
from app.engine.runtime.native_heap import release_free_heap
from app.engine.runtime.whisper_runtime import CrossAttention, WhisperRuntime
from app.engine.tokenizer import TIME_PRECISION, WhisperTokenizer
from app.engine.types import CancelToken, DecodeOptions, Segment

PROMPT_MAX = 223  # previous-text tokens kept in the prompt (n_text_ctx // 2 - 1)


def compression_ratio(text: str) -> float:
    data = text.encode("utf-8")
    return len(data) / len(zlib.compress(data)) if data else 0.0


@dataclass
class WindowDecode:
    """One window's accepted decode: the outcome, the temperature it took, its compression ratio, text."""

    outcome: DecodeOutcome
    temperature: float
    compression_ratio: float
    text: str


class FallbackWindowDecoder:
    """Everything needed to decode windows of one model with one set of options."""

    def __init__(self, runtime: WhisperRuntime, options: DecodeOptions) -> None:
        self.runtime, self.options = runtime, options
        self.tokenizer: WhisperTokenizer = runtime.tokenizer
        self.n_tokens = 0

    def logit_filters(self) -> list[LogitFilter]:
        tok, facts, opts = self.tokenizer, self.runtime.facts, self.options
        filters: list[LogitFilter] = [SuppressTokens([*facts.suppress_ids, *tok.non_speech_specials()])]
        if opts.suppress_blank:
            filters.append(SuppressAtBegin(facts.suppress_ids_begin or [*tok.encode(" "), tok.eot]))
        if not opts.without_timestamps:
            max_initial = round(opts.max_initial_timestamp / TIME_PRECISION)
            filters.append(TimestampRules(tok.eot, tok.no_timestamps, tok.timestamp_begin, max_initial))
        if opts.vocabulary and opts.vocabulary_boost > 0:  # after the timestamp rules: they see the model's own odds
            filters.append(VocabularyBoost(tok, opts.vocabulary, opts.vocabulary_boost, tok.eot))
        return filters

    def build_prompt(self, language: str | None, previous: Sequence[int], prefix: str | None = None) -> WindowPrompt:
        tok = self.tokenizer
        before = [tok.sot_prev, *previous[-PROMPT_MAX:]] if previous else []
        after = [tok.no_timestamps] if self.options.without_timestamps else []
        if prefix:
            opening = [] if self.options.without_timestamps else [tok.timestamp_begin]
            after += opening + tok.encode(" " + prefix.strip())
        return WindowPrompt(before, tok.sot_sequence(language, self.options.task), after)

    def detect_language(self, cross: CrossAttention) -> tuple[str, float]:
        """Most likely language of the window (multilingual models): (code, probability)."""
        codes = self.tokenizer.language_tokens
        if not self.runtime.facts.multilingual:
            return "en", 1.0
        logits, _ = self.runtime.decode(
            np.array([[self.tokenizer.sot]], dtype=np.int64), self.runtime.new_cache(1), cross
        )
        ids = np.array(list(codes.values()))
        probs = np.exp(log_softmax(logits[:, ids]))[0]
        best = int(probs.argmax())
        return list(codes)[best], float(probs[best])

    def decode(self, cross: CrossAttention, prompt: WindowPrompt, cancel: CancelToken | None) -> WindowDecode:
        """Try each temperature until the result passes the compression and log-prob gates."""
        opts = self.options
        results: list[WindowDecode] = []
        passing_compression: list[WindowDecode] = []
        for temperature in opts.temperatures or (0.0,):
            search = SearchConfig(
                temperature,
                opts.beam_size if temperature == 0 else 1,
                opts.best_of if temperature > 0 else 1,
                opts.patience,
                opts.length_penalty,
                opts.max_new_tokens,
            )
            loop = DecodingLoop(
                self.runtime, self.logit_filters(), self.tokenizer.no_speech, self.tokenizer.eot, cancel
            )
            outcome = loop.run(cross, prompt, search)
            self.n_tokens += loop.stats.n_tokens + 1
            result = self.result(outcome, temperature)
            results.append(result)
            if not self._too_repetitive(result):
                passing_compression.append(result)
            if self.accepts(result):
                return _released(result)
        best = max(passing_compression or results, key=lambda r: r.outcome.avg_logprob)
        best.temperature = results[-1].temperature
        return _released(best)

    def result(self, outcome: DecodeOutcome, temperature: float) -> WindowDecode:
        text = self.tokenizer.decode(outcome.tokens).strip()
        return WindowDecode(outcome, temperature, compression_ratio(text), text)

    def _too_repetitive(self, result: WindowDecode) -> bool:
        limit = self.options.compression_ratio_threshold
        return limit is not None and result.compression_ratio > limit

    def accepts(self, result: WindowDecode) -> bool:
        """True when the result passes the gates (or is silence): no higher temperature is tried."""
        opts, outcome = self.options, result.outcome
        too_unlikely = opts.log_prob_threshold is not None and outcome.avg_logprob < opts.log_prob_threshold
        silent = (
            opts.no_speech_threshold is not None and outcome.no_speech_prob > opts.no_speech_threshold and too_unlikely
        )
        return silent or not (self._too_repetitive(result) or too_unlikely)

    def is_silence(self, result: WindowDecode) -> bool:
        opts, outcome = self.options, result.outcome
        if opts.no_speech_threshold is None or outcome.no_speech_prob <= opts.no_speech_threshold:
            return False
        return not (opts.log_prob_threshold is not None and outcome.avg_logprob > opts.log_prob_threshold)


def split_segments(
    tokens: Sequence[int], tokenizer: WhisperTokenizer, time_offset: float, window_s: float, keep_tail: bool = False
) -> tuple[list[Segment], float | None]:
    """Cut a window's tokens at consecutive timestamp pairs (faster-whisper's rule).

    Returns the segments (times absolute: `time_offset` + token time) and where the next window
    should start, in seconds from `time_offset`: the last closed timestamp when the window ends
    in unfinished speech, or None to move on by the whole window. With `keep_tail` (windows that
    are never re-decoded from a later start) the unfinished speech becomes a last segment that
    ends with the window, and the result is always None.
    """
    ts = tokenizer.timestamp_begin
    single_ending = len(tokens) >= 2 and tokens[-2] < ts <= tokens[-1]
    cuts = [i for i in range(1, len(tokens)) if tokens[i] >= ts and tokens[i - 1] >= ts]
    segments: list[Segment] = []
    if cuts:
        if single_ending:
            cuts.append(len(tokens))
        last = 0
        for cut in cuts:
            part = list(tokens[last:cut])
            segments.append(
                _segment(
                    part,
                    tokenizer,
                    time_offset + (part[0] - ts) * TIME_PRECISION,
                    time_offset + (part[-1] - ts) * TIME_PRECISION,
                )
            )
            last = cut
        if single_ending:
            return segments, None
        rest = list(tokens[last:])
        if keep_tail and any(t < tokenizer.eot for t in rest):
            start = time_offset + (rest[0] - ts) * TIME_PRECISION if rest[0] >= ts else segments[-1].end
            segments.append(_segment(rest, tokenizer, start, time_offset + window_s))
        return segments, None if keep_tail else (tokens[last - 1] - ts) * TIME_PRECISION
    stamps = [t for t in tokens if t >= ts]
    duration = (stamps[-1] - ts) * TIME_PRECISION if stamps and stamps[-1] != ts else window_s
    return [_segment(list(tokens), tokenizer, time_offset, time_offset + duration)], None


def stamp(segment: Segment, result: WindowDecode) -> None:
    """Copy the window's decoding figures onto one of its segments."""
    segment.avg_logprob, segment.no_speech_prob = result.outcome.avg_logprob, result.outcome.no_speech_prob
    segment.temperature, segment.compression_ratio = result.temperature, result.compression_ratio


def consumed_tokens(tokens: Sequence[int], tokenizer: WhisperTokenizer, resume: float | None) -> list[int]:
    """The window's tokens, timestamps included, up to where the next window starts (all of
    them when `resume` from `split_segments` is None)."""
    if resume is None:
        return list(tokens)
    ts = tokenizer.timestamp_begin
    cuts = [i for i in range(1, len(tokens)) if tokens[i] >= ts and tokens[i - 1] >= ts]
    return list(tokens[: cuts[-1]]) if cuts else list(tokens)


def _segment(tokens: list[int], tokenizer: WhisperTokenizer, start: float, end: float) -> Segment:
    text_tokens = [t for t in tokens if t < tokenizer.eot]
    return Segment(
        id=0, start=round(start, 3), end=round(end, 3), text=tokenizer.decode(text_tokens), tokens=text_tokens
    )


def mel_window(mel: NDArray[np.float32], start_frame: int, n_frames: int) -> NDArray[np.float32]:
    """[n_mels, total] -> [1, n_mels, 3000], zero-padded (faster-whisper's pad_or_trim)."""
    from app.engine.runtime.features import pad_or_trim

    return pad_or_trim(mel[:, start_frame : start_frame + n_frames])[None]


def _released(result: WindowDecode) -> WindowDecode:
    """The window's buffers are free now: hand their pages back (live dictation runs for hours)."""
    release_free_heap()
    return result

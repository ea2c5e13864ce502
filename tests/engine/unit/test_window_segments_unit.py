"""A window's tokens cut into segments (app/engine/decoding/window_decoder.split_segments and
consumed_tokens): faster-whisper's rule, on the bundled model's tokenizer (read from its file)."""

from __future__ import annotations

import pytest

from app.engine.decoding.window_decoder import consumed_tokens, split_segments
from app.engine.tokenizer import WhisperTokenizer


def ts(tok: WhisperTokenizer, seconds: float) -> int:
    return tok.timestamp_begin + round(seconds / 0.02)


def test_segments_are_cut_at_consecutive_timestamps_and_end_with_the_window_when_closed(
        tokenizer: WhisperTokenizer) -> None:
    tok = tokenizer
    hello, bye = tok.encode(" Hello there."), tok.encode(" Bye.")
    tokens = [ts(tok, 0.0), *hello, ts(tok, 1.0), ts(tok, 1.0), *bye, ts(tok, 2.0)]
    segments, resume = split_segments(tokens, tok, time_offset=30.0, window_s=30.0)
    assert [(s.start, s.end, s.text, s.tokens) for s in segments] == \
        [(30.0, 31.0, " Hello there.", hello), (31.0, 32.0, " Bye.", bye)]
    assert resume is None  # the last segment is closed: move on by the whole window
    assert consumed_tokens(tokens, tok, resume) == tokens


def test_an_unfinished_last_segment_is_decoded_again_from_the_last_closed_timestamp(
        tokenizer: WhisperTokenizer) -> None:
    tok = tokenizer
    hello, cut = tok.encode(" Hello."), tok.encode(" And then")
    tokens = [ts(tok, 0.0), *hello, ts(tok, 1.5), ts(tok, 1.5), *cut]
    segments, resume = split_segments(tokens, tok, time_offset=0.0, window_s=30.0)
    assert [(s.start, s.end, s.text) for s in segments] == [(0.0, 1.5, " Hello.")]
    assert resume == pytest.approx(1.5)
    assert consumed_tokens(tokens, tok, resume) == [ts(tok, 0.0), *hello, ts(tok, 1.5)]
    # A window never decoded again keeps the unfinished speech, up to the window's end.
    kept, none = split_segments(tokens, tok, time_offset=0.0, window_s=30.0, keep_tail=True)
    assert [(s.start, s.end, s.text) for s in kept] == [(0.0, 1.5, " Hello."), (1.5, 30.0, " And then")]
    assert none is None


def test_a_window_without_a_timestamp_pair_is_one_segment(tokenizer: WhisperTokenizer) -> None:
    tok = tokenizer
    text = tok.encode(" Just this.")
    timed, _ = split_segments([ts(tok, 0.0), *text, ts(tok, 2.4)], tok, time_offset=5.0, window_s=30.0)
    assert [(s.start, s.end, s.text) for s in timed] == [(5.0, 7.4, " Just this.")]
    untimed, resume = split_segments(text, tok, time_offset=5.0, window_s=12.0)  # <|notimestamps|>
    assert [(s.start, s.end, s.text) for s in untimed] == [(5.0, 17.0, " Just this.")]
    assert resume is None

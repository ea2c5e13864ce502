"""Speech that an utterance's final decode left out, decoded on its own.

Whisper can end its text while the audio goes on: in a long joined window it writes the sentences
it has heard and stops. base ends a joined window at "... We're just saying some words and",
decode after decode, while the speaker goes on for seconds: without a decode of its own, that
rest is never committed. The file transcriber decodes speech after a window's last segment
again for the same reason (batched.py).
When the final decode's words stop mid-sentence `rest_after_s` or more before the utterance
ends (after a finished sentence: `rest_after_sentence_s`, longer) and the voice detector heard
speech there, the rest is decoded as a window of its own,
judged by the same guards and kept only if its words' mean probability reaches
`min_word_probability` (words without a measured probability count as 1); a first word that
repeats the last word heard is skipped (attention places a word's end a little early).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray

from app.dictation.decoder_port import WindowDecoder
from app.dictation.guards import Verdict, judge_window
from app.dictation.hypothesis import hypothesis_words
from app.dictation.policy_options import PolicyOptions
from app.dictation.sentence_shape import ends_sentence
from app.dictation.text import HypothesisWord, join_words
from app.engine.decoding.window_decoder import compression_ratio
from app.engine.types import SAMPLE_RATE, CancelToken

# the rest must be mostly speech: the end pad and a breath after the last word are not
MIN_REST_SPEECH = 0.5


def decode_rest(
    decoder: WindowDecoder,
    get_audio: Callable[[int, int], NDArray[np.float32]],
    speech_ratio: Callable[[int, int], float],
    heard: Sequence[HypothesisWord],
    end: int,
    options: PolicyOptions,
    cancel: CancelToken | None = None,
) -> list[HypothesisWord]:
    """Words (absolute times, s) of the speech in [end of `heard`, `end`) (16 kHz sample
    indices) when the words of the utterance's final decode, `heard`, stop
    `options.rest_after_s` (after a finished sentence `options.rest_after_sentence_s`) or more
    before `end`; [] when they do not, the detector heard no speech there, or the guards reject
    it."""
    if not heard or options.rest_after_s <= 0:
        return []
    # after a finished sentence (. ? !, not an ellipsis) a short rest is something Whisper chose
    # not to write: laughter after a finished sentence, decoded alone, comes out as "Ha ha." at a
    # good probability, where offline and every decode of the whole window write nothing; a
    # whole sentence in noise after it is something the joined window stopped short of
    after_sentence = ends_sentence(heard[-1].text.rstrip())
    wait_s = options.rest_after_sentence_s if after_sentence else options.rest_after_s
    start = min(end, round(heard[-1].end * SAMPLE_RATE))
    if wait_s <= 0 or end - start < wait_s * SAMPLE_RATE:
        return []
    share = speech_ratio(start, end)
    if share < MIN_REST_SPEECH:
        return []
    result = decoder.decode_window(get_audio(start, end), options.final_decode(), (), cancel)
    words = hypothesis_words(result, start, end, options.guards.max_ngram_repeats).words
    verdict = judge_window(
        result.no_speech_prob, result.avg_logprob, compression_ratio(join_words(words)), share, options.guards
    )
    if verdict is not Verdict.ACCEPT or not words:
        return []
    if sum(w.probability for w in words) / len(words) < options.min_word_probability:
        return []
    return words[1:] if words[0].norm == heard[-1].norm else words

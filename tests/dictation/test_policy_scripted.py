"""The streaming policy alone, driven by a scripted decoder (fast: no model).

The decoder is a fake on purpose: these tests pin the policy's bookkeeping (what is committed
when, what is trimmed, what is held) to hypotheses written down here, which a real model cannot
be made to produce on demand. Every hypothesis is a list of segments (start s, end s, text)
relative to the window the policy asked for. The real-model behaviour is in test_streaming_replay.py.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from app.dictation.policy import PolicyOptions, StreamingPolicy
from app.dictation.text import join_words
from app.engine.types import CancelToken, DecodeOptions, Segment, WindowResult

RATE = 16000
Hyp = list[tuple[float, float, str]]


class _Tokenizer:
    def encode(self, text: str) -> list[int]:
        return [len(w) for w in text.split()]


class ScriptedDecoder:
    """Returns the scripted hypotheses in order; records each window's length (s)."""

    tokenizer = _Tokenizer()

    def __init__(self, script: Sequence[Hyp], no_speech_prob: float = 0.01) -> None:
        self.script = list(script)
        self.no_speech_prob = no_speech_prob
        self.windows_s: list[float] = []

    def decode_window(self, audio: np.ndarray, options: DecodeOptions, prompt_tokens: Sequence[int] = (),
                      cancel: CancelToken | None = None) -> WindowResult:
        self.windows_s.append(audio.shape[0] / RATE)
        segments = [Segment(i, s, e, t) for i, (s, e, t) in enumerate(self.script.pop(0))]
        text = "".join(seg.text for seg in segments)
        return WindowResult([], text, segments, "en", 1.0, -0.2, self.no_speech_prob, 1.2, 0.0)


def make_policy(script: Sequence[Hyp], **options: float) -> tuple[StreamingPolicy, ScriptedDecoder]:
    decoder = ScriptedDecoder(script)
    opts = PolicyOptions(**{"agreement": 2, "commit_margin_s": 0.0, **options})  # type: ignore[arg-type]
    policy = StreamingPolicy(decoder, lambda a, b: np.zeros(b - a, dtype=np.float32), lambda a, b: 1.0, opts)
    return policy, decoder


def s(seconds: float) -> int:
    return int(seconds * RATE)


def test_local_agreement_commits_what_two_hypotheses_agree_on() -> None:
    policy, _ = make_policy([
        [(0.0, 1.0, " Hello world")],
        [(0.0, 1.5, " Hello world how")],
        [(0.0, 2.0, " Hello world, how are you")],
    ])
    policy.begin(0)
    assert policy.decode(s(1.0)).committed == []  # one hypothesis agrees with nothing
    update = policy.decode(s(1.5))
    assert join_words(update.committed) == " Hello world"
    assert join_words(update.tentative) == " how"
    update = policy.decode(s(2.0))
    # "how" agreed; the comma the third hypothesis puts after "world" reaches the text with it
    assert join_words(update.committed) == ", how"
    assert join_words(policy.committed) == " Hello world, how"


def test_agreed_words_close_to_the_end_of_the_audio_stay_tentative() -> None:
    policy, _ = make_policy([[(0.0, 2.0, " one two three four")]] * 2, commit_margin_s=0.6)
    policy.begin(0)
    policy.decode(s(2.0))
    update = policy.decode(s(2.0))
    # words are timed by characters: "four" ends at 2.0 s and "three" at about 1.5 s
    assert join_words(update.committed) == " one two"
    assert join_words(update.tentative) == " three four"


def test_committed_words_are_never_emitted_again() -> None:
    policy, _ = make_policy([
        [(0.0, 1.0, " Good morning")],
        [(0.0, 1.5, " Good morning team")],
        [(0.0, 2.5, " Good morning, team. Let us start")],  # the committed words, respelled
        [(0.0, 3.0, " Good morning team. Let us start now")],
    ])
    policy.begin(0)
    policy.decode(s(1.0))
    policy.decode(s(1.5))
    policy.decode(s(2.5))
    policy.decode(s(3.0))
    text = join_words(policy.committed)
    assert text.lower().count("morning") == 1 and text.lower().count("team") == 1, text
    assert text == " Good morning, team. Let us start"  # "now" is still tentative


def test_a_long_window_is_trimmed_at_a_committed_segment_boundary() -> None:
    first = [(0.0, 6.0, " The first sentence is done."), (6.0, 11.0, " The second one goes")]
    rest = [(0.0, 5.5, " The second one goes on")]
    policy, decoder = make_policy([first, first, rest, rest], trim_after_s=10.0)
    policy.begin(0)
    policy.decode(s(11.0))
    policy.decode(s(11.0))  # agreed on all of it; the window starts after the first segment now
    assert policy.window_start == s(6.0)
    update = policy.decode(s(11.5))
    assert decoder.windows_s[-1] == 5.5
    assert update.committed == [] and join_words(update.tentative) == " on"  # seen once
    assert join_words(policy.decode(s(11.5)).committed) == " on"
    assert join_words(policy.committed) == " The first sentence is done. The second one goes on"


def test_the_final_mark_waits_for_the_next_words_of_a_joined_window() -> None:
    """A pause after "Americans" ends the utterance; Whisper writes a period for the fragment.
    The next utterance starts within `join_gap_s`, its window still holds "Americans", and with
    the words that follow Whisper writes a comma there: the committed text gets the comma."""
    policy, _ = make_policy([
        [(0.0, 2.0, " And so my fellow Americans.")],
        [(0.0, 4.0, " And so my fellow Americans, ask not.")],
    ])
    policy.begin(0)
    assert join_words(policy.finish(s(2.0)).committed) == " And so my fellow Americans"
    policy.begin(s(2.5))
    assert policy.window_start == 0  # joined: the window keeps the committed audio
    assert join_words(policy.finish(s(4.0)).committed) == ", ask not"
    assert join_words(policy.flush().committed) == "."
    assert join_words(policy.committed) == " And so my fellow Americans, ask not."


def test_no_sentence_starts_lower_case_after_end_punctuation() -> None:
    """After a long pause the next window starts fresh; its first word written lower-case
    (as Whisper does when it hears a continuation) is capitalised after the held period."""
    policy, _ = make_policy([[(0.0, 1.0, " We are done.")], [(0.0, 1.0, " and then some")]])
    policy.begin(0)
    policy.finish(s(1.0))
    policy.begin(s(5.0))
    assert policy.window_start == s(5.0)
    assert join_words(policy.finish(s(6.0)).committed) == ". And then some"


def test_an_utterance_that_stops_mid_sentence_is_open() -> None:
    policy, _ = make_policy([[(0.0, 1.0, " ask not")], [(0.0, 1.0, " That is all.")]])
    policy.begin(0)
    policy.decode(s(1.0))
    assert policy.ends_open()
    policy.begin(0)
    policy.decode(s(1.0))
    assert not policy.ends_open()


def test_a_window_judged_non_speech_commits_nothing() -> None:
    decoder = ScriptedDecoder([[(0.0, 2.0, " Thank you.")]] * 3, no_speech_prob=0.9)
    policy = StreamingPolicy(decoder, lambda a, b: np.zeros(b - a, dtype=np.float32), lambda a, b: 0.3,
                             PolicyOptions(agreement=2, commit_margin_s=0.0))
    policy.begin(0)
    policy.decode(s(2.0))
    policy.decode(s(2.0))
    assert policy.finish(s(2.5)).committed == [] and policy.committed == []


def test_a_word_after_end_punctuation_inside_a_commit_starts_upper_case() -> None:
    policy, _ = make_policy([[(0.0, 3.0, " What you can do for you. ask what you can do")]] * 2)
    policy.begin(0)
    policy.decode(s(3.0))
    assert join_words(policy.decode(s(3.0)).committed) == " What you can do for you. Ask what you can do"

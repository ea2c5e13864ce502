"""The streaming policy alone, driven by a scripted decoder (fast: no model).

The decoder is a fake on purpose: these tests pin the policy's bookkeeping (what is committed
when, what is trimmed, what is held) to hypotheses written down here, which a real model cannot
be made to produce on demand. Every hypothesis is a list of segments (start s, end s, text),
optionally with the words' cross-attention times (word, start s, end s), relative to the window
the policy asked for. The real-model behaviour is in test_streaming_replay.py.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from app.dictation.commit_rule import CommitRule, Hold
from app.dictation.decode_quality import DecodeMode, QualitySwitch
from app.dictation.policy import PolicyOptions, PolicyUpdate, StreamingPolicy
from app.dictation.text import join_words
from app.engine.types import CancelToken, DecodeOptions, Segment, WindowResult, Word

RATE = 16000
TimedPiece = tuple[str, float, float] | tuple[str, float, float, float]  # word, start, end[, probability]
Hyp = list[tuple[float, float, str]] | list[tuple[float, float, str, list[TimedPiece]]]


class _Tokenizer:
    def encode(self, text: str) -> list[int]:
        return [len(w) for w in text.split()]


class ScriptedDecoder:
    """Returns the scripted hypotheses in order; records each window's length (s)."""

    tokenizer = _Tokenizer()

    def __init__(self, script: Sequence[Hyp], no_speech_prob: float | Sequence[float] = 0.01) -> None:
        self.script = list(script)
        self.no_speech = [no_speech_prob] * len(script) if isinstance(no_speech_prob, float) else list(no_speech_prob)
        self.windows_s: list[float] = []
        self.timed_requests: list[bool] = []  # per decode: were word times asked for
        self.beams: list[int] = []  # per decode: the beam size asked for
        self.prompts: list[list[int]] = []  # per decode: the prompt token ids

    def decode_window(self, audio: np.ndarray, options: DecodeOptions, prompt_tokens: Sequence[int] = (),
                      cancel: CancelToken | None = None) -> WindowResult:
        self.windows_s.append(audio.shape[0] / RATE)
        self.timed_requests.append(options.word_timestamps)
        self.beams.append(options.beam_size)
        self.prompts.append(list(prompt_tokens))
        segments = []
        for i, (start, end, text, *timed) in enumerate(self.script.pop(0)):
            words = [Word(w, ws, we, *(p or [1.0])) for w, ws, we, *p in timed[0]] if timed else None
            segments.append(Segment(i, start, end, text, words=words))
        text = "".join(seg.text for seg in segments)
        return WindowResult([], text, segments, "en", 1.0, -0.2, self.no_speech.pop(0), 1.2, 0.0)


def make_policy(script: Sequence[Hyp], no_speech_prob: float | Sequence[float] = 0.01, realtime: bool = True,
                **options: object) -> tuple[StreamingPolicy, ScriptedDecoder]:
    """The policy on `script`; LocalAgreement-2 without margin and without the bridge decode (an
    extra decode at a fresh window's first commit, scripted only in the tests about it) unless
    `options` say otherwise."""
    decoder = ScriptedDecoder(script, no_speech_prob)
    defaults = {"agreement": 2, "commit_margin_s": 0.0, "commit_rule": CommitRule.LOCAL_AGREEMENT, "bridge_s": 0.0}
    opts = PolicyOptions(**{**defaults, **options})  # type: ignore[arg-type]
    policy = StreamingPolicy(decoder, lambda a, b: np.zeros(b - a, dtype=np.float32), lambda a, b: 1.0, opts,
                             realtime=realtime)
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


def test_the_decode_that_ends_an_utterance_uses_the_final_beam_and_finish_commits_it() -> None:
    """Words `finish` commits come from one hypothesis that nothing confirms: that decode (the
    worker's decode up to the VAD's end of speech) runs the beam; the running decodes stay greedy."""
    policy, decoder = make_policy([
        [(0.0, 1.0, " And so am I")],
        [(0.0, 2.0, " And so my fellow Americans")],
    ], final_beam_size=5)
    policy.begin(0)
    policy.decode(s(1.0))
    policy.decode(s(2.0), final=True)
    policy.finish(s(2.0))  # the final decode covered exactly this audio: no third decode
    assert decoder.beams == [1, 5]
    assert join_words(policy.committed) == " And so my fellow Americans"


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


# ---------------------------------------------------------------- sentence shape across utterances
def test_the_models_period_before_a_capitalised_word_survives_a_hypothesis_that_drops_it() -> None:
    """The first clip ends "for your country."; the next one, in the same (joined) window, makes
    Whisper write "for your country Mr. Quilter": the period stays ("country Mr. Quilter" before)."""
    policy, _ = make_policy([
        [(0.0, 2.0, " Ask what you can do for your country.")],
        [(0.0, 4.5, " Ask what you can do for your country Mr. Quilter is the apostle.")],
    ])
    policy.begin(0)
    policy.finish(s(2.0))
    policy.begin(s(2.4))
    assert join_words(policy.finish(s(4.5)).committed) == ". Mr. Quilter is the apostle"


def test_an_utterance_without_a_mark_ends_its_sentence_before_one_that_starts_a_sentence() -> None:
    """"We are done" (no mark), 3 s of silence, a fresh window that starts "Then": a period."""
    policy, _ = make_policy([[(0.0, 1.0, " We are done")], [(0.0, 1.0, " Then we left")]])
    policy.begin(0)
    policy.finish(s(1.0))
    policy.begin(s(4.0))
    assert policy.window_start == s(4.0)  # fresh: the pause is longer than join_gap_s
    assert join_words(policy.finish(s(5.0)).committed) == ". Then we left"


def test_no_period_where_the_next_words_continue_the_sentence() -> None:
    """A joined window whose next words are lower-case, one that starts with "I", and a fresh
    window after a short pause (the window was too long to join): no period is made up."""
    policy, _ = make_policy([
        [(0.0, 1.0, " We went")],
        [(0.0, 2.0, " We went home and")],
        [(0.0, 3.0, " We went home and I slept")],
        [(0.0, 1.0, " Then more")],
    ], trim_after_s=2.5)
    policy.begin(0)
    policy.finish(s(1.0))
    policy.begin(s(1.3))
    assert join_words(policy.finish(s(2.0)).committed) == " home and"
    policy.begin(s(2.3))
    assert join_words(policy.finish(s(3.0)).committed) == " I slept"
    policy.begin(s(3.4))  # 3.4 s of window: too long to join, and only 0.4 s of pause
    assert policy.window_start == s(3.4)
    assert join_words(policy.finish(s(4.4)).committed) == " Then more"


def test_a_session_stopped_mid_sentence_ends_with_a_period() -> None:
    policy, _ = make_policy([[(0.0, 1.0, " so we will,")]])
    policy.begin(0)
    policy.finish(s(1.0))
    assert join_words(policy.flush().committed) == "."  # the held comma becomes a period
    assert join_words(policy.committed) == " so we will."


def test_sentence_shape_is_an_option() -> None:
    policy, _ = make_policy([[(0.0, 1.0, " We are done")], [(0.0, 1.0, " Then we left")]],
                            close_sentences=False)
    policy.begin(0)
    policy.finish(s(1.0))
    policy.begin(s(4.0))
    policy.finish(s(5.0))
    assert policy.flush().committed == []
    assert join_words(policy.committed) == " We are done Then we left"


def test_a_pause_inside_a_sentence_is_not_a_sentence_end() -> None:
    """"Yesterday we all", a 2 s pause, "gathered to review the plan": Whisper writes "we all."
    for the fragment and "Gathered" in the fresh window. The bridge decode hears "we all" and the
    new words together and writes "we all gathered": no period, no capital."""
    policy, decoder = make_policy([
        [(0.0, 1.5, " Yesterday we all.")],
        [(0.0, 1.6, " Gathered to review the plan.")],
        [(0.0, 3.4, " Yesterday we all gathered to review the plan.")],  # the bridge: 1.5 + 0.3 + 1.6 s
    ], bridge_s=3.0)
    policy.begin(0)
    policy.finish(s(1.5))
    policy.begin(s(3.5))
    assert policy.window_start == s(3.5)  # fresh: the pause is longer than join_gap_s
    assert join_words(policy.finish(s(5.1)).committed) == " gathered to review the plan"
    assert decoder.windows_s[-1] == pytest.approx(1.5 + 0.3 + 1.6)  # the whole previous utterance (under bridge_s)
    assert join_words(policy.flush().committed) == "."
    assert join_words(policy.committed) == " Yesterday we all gathered to review the plan."


def test_a_sentence_end_the_bridge_decode_writes_is_kept() -> None:
    """Two sentences with a pause: the bridge decode writes the period and the capital, and so
    does the text; where it writes them without a mark but starts a segment at the new words
    (as tiny.en does for two read sentences), the break still counts."""
    policy, _ = make_policy([
        [(0.0, 1.0, " We are done.")],
        [(0.0, 1.0, " Then we left.")],
        [(0.0, 2.3, " We are done. Then we left.")],
        [(0.0, 1.0, " She had your dark suit.")],
        [(0.0, 1.2, " We are done. Then we left"), (1.3, 3.3, " she had your dark suit.")],
    ], bridge_s=3.0)
    policy.begin(0)
    policy.finish(s(1.0))
    policy.begin(s(4.0))
    assert join_words(policy.finish(s(5.0)).committed) == ". Then we left"
    policy.begin(s(8.0))
    assert join_words(policy.finish(s(9.0)).committed) == ". She had your dark suit"


def test_the_bridge_decode_decides_the_sentence_end_not_which_mark() -> None:
    """Where the bridge decode agrees that the sentence ends ("this!" for the fragment's "this."),
    the mark of the fragment's own decode stays."""
    policy, _ = make_policy([
        [(0.0, 1.0, " Talk like this.")],
        [(0.0, 1.0, " Montreal.")],
        [(0.0, 2.3, " Talk like this! Montreal.")],
    ], bridge_s=3.0)
    policy.begin(0)
    policy.finish(s(1.0))
    policy.begin(s(4.0))
    assert join_words(policy.finish(s(5.0)).committed) == ". Montreal"


def test_without_the_bridge_words_the_pause_decides() -> None:
    """A bridge decode that does not repeat the previous words tells nothing: the rules of a fresh
    window apply (a capital after a sentence pause starts a sentence)."""
    policy, _ = make_policy([
        [(0.0, 1.0, " We are done")],
        [(0.0, 1.0, " Then we left")],
        [(0.0, 2.3, " Then we left")],
    ], bridge_s=3.0)
    policy.begin(0)
    policy.finish(s(1.0))
    policy.begin(s(4.0))
    assert join_words(policy.finish(s(5.0)).committed) == ". Then we left"


# ---------------------------------------------------------------- AlignAtt commit rule
# "one two three four" in 2.0 s of window, the speaker fast: the cross-attention puts "three"
# at 0.9-1.2 s, far from where character positions would (about 1.5 s), and "four" at 1.7-2.0 s.
_TIMED = [(0.0, 2.0, " one two three four",
           [(" one", 0.1, 0.4), (" two", 0.5, 0.8), (" three", 0.9, 1.2), (" four", 1.7, 2.0)])]


def test_align_att_commits_agreed_words_whose_attention_stays_away_from_the_end() -> None:
    policy, decoder = make_policy([_TIMED] * 2, commit_rule=CommitRule.ALIGN_ATT, attention_margin_s=0.4)
    policy.begin(0)
    policy.decode(s(2.0))
    update = policy.decode(s(2.0))
    assert join_words(update.committed) == " one two three"
    assert join_words(update.tentative) == " four"  # its attention is in the last 0.4 s
    assert decoder.timed_requests == [True, True]  # the rule asked for word times


def test_align_att_with_agreement_one_commits_from_the_first_hypothesis() -> None:
    policy, _ = make_policy([_TIMED], commit_rule=CommitRule.ALIGN_ATT, attention_margin_s=0.4, agreement=1)
    policy.begin(0)
    assert join_words(policy.decode(s(2.0)).committed) == " one two three"


def test_local_agreement_keeps_its_fixed_margin_on_the_same_hypotheses() -> None:
    """The same two hypotheses under LocalAgreement with its default 1.5 s margin: only the words
    that end 1.5 s before the audio does ("one", ending at 0.4 s) are committed."""
    policy, _ = make_policy([_TIMED] * 2, commit_margin_s=1.5)
    policy.begin(0)
    policy.decode(s(2.0))
    assert join_words(policy.decode(s(2.0)).committed) == " one"


# ---------------------------------------------------------------- holding what the decoder guesses
def _align_att(script: Sequence[Hyp], no_speech_prob: float | Sequence[float] = 0.01,
               **options: object) -> tuple[StreamingPolicy, ScriptedDecoder]:
    return make_policy(script, no_speech_prob, commit_rule=CommitRule.ALIGN_ATT, attention_margin_s=0.4, **options)


def test_a_short_utterance_commits_nothing_before_its_end() -> None:
    """0.9 s of an utterance: two hypotheses agree on "Have a" far from the end of the audio, but
    that is what under a second of "And Mr. John" sounds like; the VAD's end commits the whole."""
    guess = [(0.0, 0.9, " Have a", [(" Have", 0.1, 0.3), (" a", 0.3, 0.4)])]
    policy, _ = _align_att([guess, guess, [(0.0, 1.2, " And Mr. John.")]])
    policy.begin(0)
    policy.decode(s(0.7))
    assert policy.decode(s(0.9)).committed == []
    assert join_words(policy.finish(s(1.2)).committed) == " And Mr. John"


def test_the_hold_ends_once_the_utterance_has_heard_enough_audio() -> None:
    short = [(0.0, 0.9, " one two", [(" one", 0.1, 0.3), (" two", 0.4, 0.6)])]
    policy, _ = _align_att([short, short, short], min_commit_audio_s=1.0)
    policy.begin(0)
    policy.decode(s(0.9))
    assert policy.decode(s(0.9)).committed == []  # agreed, "one" before the horizon: held
    assert join_words(policy.decode(s(1.2)).committed) == " one two"


def test_laughter_the_decoder_is_unsure_of_is_not_committed_and_the_words_after_it_are() -> None:
    """Laughter before "Montreal": two decodes agree on "Ha ha ha." far from the end of the
    audio, "Ha" at probability 0.12-0.13. Nothing of it is committed; the word heard next is (once
    no hypothesis behind the agreeing ones wrote laughter there), and the end of the utterance
    commits what the whole of it decodes to."""
    def laugh(p_ha: float) -> Hyp:
        return [(0.0, 1.5, " Ha ha ha.", [(" Ha", 0.4, 0.6, p_ha), (" ha", 0.6, 0.7, 0.6), (" ha.", 0.7, 0.9, 0.7)])]
    word = [(0.0, 3.0, " Montreal", [(" Montreal", 1.6, 2.2, 0.8)])]
    policy, _ = _align_att([laugh(0.13), laugh(0.12), word, word, word, [(0.0, 3.5, " Montreal.")]])
    policy.begin(0)
    policy.decode(s(1.5))
    assert policy.decode(s(2.0)).committed == []
    policy.decode(s(3.0))
    assert policy.decode(s(3.0)).committed == []  # the decode before these two wrote "Ha ha ha."
    assert join_words(policy.decode(s(3.0)).committed) == " Montreal"
    policy.finish(s(3.5))
    assert join_words(policy.committed) == " Montreal"


def test_an_agreed_word_the_decoder_is_unsure_of_stays_tentative_with_the_words_after_it() -> None:
    """"Americans asked" is agreed on at probability 0.22 and 0.30 before "not" is heard: "asked"
    and what follows it wait ("Americans", 0.94, is committed), also when the next hypothesis
    is surer (0.49): every agreeing hypothesis must be. Once it ends `unsure_wait_s` before the
    end of the audio, waiting no longer helps: it is committed."""
    def hyp(p_asked: float, end: float = 3.0) -> Hyp:
        return [(0.0, end, " my fellow Americans asked not",
                 [(" my", 0.1, 0.3, 0.6), (" fellow", 0.4, 0.7, 0.95), (" Americans", 0.8, 1.3, 0.94),
                  (" asked", 1.4, 1.8, p_asked), (" not", 1.9, 2.2, 0.8)])]
    policy, _ = _align_att([hyp(0.22), hyp(0.30), hyp(0.49), hyp(0.3, 4.0)], unsure_wait_s=2.0)
    policy.begin(0)
    policy.decode(s(3.0))
    update = policy.decode(s(3.0))
    assert join_words(update.committed) == " my fellow Americans"
    assert join_words(update.tentative) == " asked not"
    assert policy.decode(s(3.0)).committed == []
    assert join_words(policy.decode(s(4.0)).committed) == " asked not"  # "asked" ended 2.2 s ago


def test_the_hold_log_says_which_rule_held_each_word() -> None:
    """The decodes of the test above: every word waits for agreement first; "asked" and "not"
    then wait for the unsure word, and the benchmark reads which rule held each word last."""
    def hyp(p_asked: float, end: float = 3.0) -> Hyp:
        return [(0.0, end, " my fellow Americans asked not",
                 [(" my", 0.1, 0.3, 0.6), (" fellow", 0.4, 0.7, 0.95), (" Americans", 0.8, 1.3, 0.94),
                  (" asked", 1.4, 1.8, p_asked), (" not", 1.9, 2.2, 0.8)])]
    policy, _ = _align_att([hyp(0.22), hyp(0.30), hyp(0.3, 4.0)], unsure_wait_s=2.0)
    policy.begin(0)
    for end in (3.0, 3.0, 4.0):
        policy.decode(s(end))
    log = policy.hold_log
    assert [log.last[k] for k in range(5)] == [Hold.AGREEMENT] * 3 + [Hold.UNSURE] * 2
    assert log.ever[4] == {Hold.AGREEMENT, Hold.UNSURE}
    assert join_words(policy.committed) == " my fellow Americans asked not"


def one_segment(text: str, end: float) -> Hyp:
    """One segment from 0 to `end` s, words timed by characters."""
    return [(0.0, end, text)]


def test_two_agreeing_decodes_right_after_one_that_heard_other_words_commit_nothing_yet() -> None:
    """tiny.en on an espeak clip: "The weather today is" at 1.5 s of audio, then "But when the
    today is sunny" twice, then "The weather today ...". The agreed "But" is not committed while
    the decode before the agreeing pair wrote another word there (not its last one); a decode
    that only had not reached a word ("is" before "is sunny") does not hold it."""
    policy, _ = make_policy([
        one_segment(" The weather today is", 1.5),
        one_segment(" But when the today is sunny", 2.5),
        one_segment(" But when the today is sunny with a light", 3.0),
        one_segment(" The weather today is sunny with a light wind", 3.5),
        one_segment(" The weather today is sunny with a light wind from", 4.0),
        one_segment(" The weather today is sunny with a light wind from the", 4.5),
    ], commit_rule=CommitRule.ALIGN_ATT, attention_margin_s=0.0)
    policy.begin(0)
    policy.decode(s(1.5))
    policy.decode(s(2.5))
    assert policy.decode(s(3.0)).committed == []  # "But" agreed, but "The" was written before
    assert policy.decode(s(3.5)).committed == []  # no agreement
    assert policy.decode(s(4.0)).committed == []  # "The" agreed, but "But" was written before
    update = policy.decode(s(4.5))
    assert join_words(update.committed) == " The weather today is sunny with a light wind from"


def test_local_agreement_also_waits_when_the_decode_before_the_agreeing_ones_wrote_other_words() -> None:
    """In real time on a busy machine the decodes of the espeak weather clip are further apart,
    and three can agree on "But when the" after one that wrote "The weather today is":
    LocalAgreement-3 must not commit "But when the is sunny". It waits a decode, and the next one
    writes "The weather" again."""
    policy, _ = make_policy([
        one_segment(" The weather today is", 1.5),
        one_segment(" But when the today is sunny", 3.0),
        one_segment(" But when the today is sunny with", 4.0),
        one_segment(" But when the today is sunny with a light", 5.0),
        one_segment(" The weather today is sunny with a light wind", 6.0),
    ], agreement=3, commit_margin_s=1.5)
    policy.begin(0)
    for end in (1.5, 3.0, 4.0):
        assert policy.decode(s(end)).committed == []
    assert policy.decode(s(5.0)).committed == []  # three agree on "But when the", past the margin
    assert policy.decode(s(6.0)).committed == []  # no agreement
    assert join_words(policy.finish(s(6.0)).committed).startswith(" The weather today is sunny")


def test_speech_the_final_decode_left_out_is_decoded_on_its_own() -> None:
    """base, on the hoarse recording in a session, ends a long window with "... some words and"
    while "here are some more words" goes on for 5 s, so the utterance's end commits nothing of
    it: the rest, after the last word the decode wrote, is decoded alone and committed."""
    said = [(0.0, 6.0, " We're just saying some words and")]
    policy, decoder = make_policy([said, said, said, [(0.0, 4.8, " and here are some more words.")]])
    policy.begin(0)
    policy.decode(s(8.0))
    policy.decode(s(10.0))
    update = policy.finish(s(11.0))
    assert decoder.windows_s == [8.0, 10.0, 11.0, 5.0]  # the rest: from the end of "and" (6.0 s)
    assert join_words(update.committed) == " here are some more words"
    assert join_words(policy.committed).endswith("some words and here are some more words")
    assert join_words(policy.committed).count(" and") == 1


def test_no_rest_is_decoded_where_the_voice_detector_heard_none() -> None:
    said = [(0.0, 6.0, " We're just saying some words and")]
    decoder = ScriptedDecoder([said, said, said])
    policy = StreamingPolicy(decoder, lambda a, b: np.zeros(b - a, dtype=np.float32),
                             lambda a, b: 0.9 if b <= s(6.0) else 0.2, PolicyOptions())
    policy.begin(0)
    policy.decode(s(6.0))
    policy.decode(s(6.0))
    policy.finish(s(9.0))
    assert decoder.windows_s == [6.0, 6.0, 9.0]
    assert join_words(policy.committed) == " We're just saying some words and"


def test_a_short_rest_after_a_finished_sentence_or_an_unsure_one_is_not_committed() -> None:
    """Laughter (1.3 s) after "Montreal. Forced. A liner." decoded alone as "Ha ha.": after a
    finished sentence a rest under `rest_after_sentence_s` (2 s) is not decoded at all; after an
    unfinished one, a rest the decoder is unsure of (mean word probability under 0.5) is not
    committed."""
    laugh = [(0.0, 1.5, " Ha ha.", [(" Ha", 0.2, 0.8, 0.2), (" ha.", 0.8, 1.5, 0.3)])]
    for text, rest_decoded in ((" A liner.", False), (" A liner", True)):
        said = [(0.0, 3.0, text, [(" A", 2.0, 2.3, 0.9), (" liner", 2.3, 3.0, 0.9)])]
        policy, decoder = make_policy([said, said, said, laugh])
        policy.begin(0)
        policy.decode(s(3.0))
        policy.decode(s(4.0))
        policy.finish(s(4.5))
        assert decoder.windows_s == [3.0, 4.0, 4.5, *([1.5] if rest_decoded else [])]
        assert join_words(policy.committed) == " A liner"


def test_a_sentence_after_a_finished_one_that_the_window_left_out_is_committed() -> None:
    """Two sentences in 0 dB noise 0.35 s apart are one utterance to the voice detector; the
    window over both writes the first and stops, decode after decode (robustness's continuous
    session). The 3.5 s after the finished sentence are decoded on their own."""
    said = [(0.0, 5.0, " In the exhibition.", [(" In", 3.0, 3.5, 0.9), (" the", 3.5, 4.0, 0.9),
                                               (" exhibition.", 4.0, 5.0, 0.9)])]
    rest = [(0.0, 3.5, " She had your dark suit.", [(" She", 0.2, 0.5, 0.8), (" had", 0.5, 0.8, 0.7),
                                                   (" your", 0.8, 1.1, 0.6), (" dark", 1.1, 1.6, 0.5),
                                                   (" suit.", 1.6, 2.5, 0.6)])]

    def utterance(**options: object) -> tuple[StreamingPolicy, ScriptedDecoder, PolicyUpdate]:
        policy, decoder = make_policy([said, said, said, rest], **options)
        policy.begin(0)
        policy.decode(s(7.0))
        policy.decode(s(8.0))
        return policy, decoder, policy.finish(s(8.5))

    policy, decoder, update = utterance()
    assert decoder.windows_s == [7.0, 8.0, 8.5, 3.5]
    assert join_words(update.committed).endswith(" She had your dark suit")
    policy.flush()  # the session ends: the held mark after the last word
    assert join_words(policy.committed) == " In the exhibition. She had your dark suit."
    for off in ({"rest_after_sentence_s": 0.0}, {"rest_after_s": 0.0}):
        _, decoder, _ = utterance(**off)
        assert decoder.windows_s == [7.0, 8.0, 8.5], off


def test_a_rest_after_a_decode_that_wrote_laughter_instead_of_the_committed_sentence_starts_after_it() -> None:
    """speech's last clip in continuous speech: the joined window over the committed sentence and
    the "1, 2, 3" said right after it decodes as "Ha ha." placed at its start. The rest is the speech after
    the committed "exhibition.", not everything after the laughter: decoded from there, the whole
    sentence was written a second time."""
    sentence = [(0.0, 5.0, " In the exhibition.", [(" In", 3.0, 3.5, 0.9), (" the", 3.5, 4.0, 0.9),
                                                   (" exhibition.", 4.0, 5.0, 0.9)])]
    laugh = [(0.0, 1.0, " Ha ha.", [(" Ha", 0.2, 0.5, 0.9), (" ha.", 0.5, 1.0, 0.9)])]
    rest = [(0.0, 2.5, " 1, 2, 3.", [(" 1,", 0.8, 1.2, 0.9), (" 2,", 1.3, 1.7, 0.9), (" 3.", 1.8, 2.2, 0.9)])]
    policy, decoder = make_policy([sentence, laugh, laugh, laugh, rest])
    policy.begin(0)
    policy.decode(s(5.0))
    policy.finish(s(5.0))
    policy.begin(s(5.3))  # 0.3 s later: the same window
    policy.decode(s(6.5))
    policy.decode(s(7.0))
    policy.finish(s(7.5))
    assert decoder.windows_s == [5.0, 6.5, 7.0, 7.5, 2.5]  # the rest: from the end of "exhibition."
    assert join_words(policy.committed) == " In the exhibition. 1, 2, 3"


# ---------------------------------------------------------------- beam and prompt with headroom
def test_with_headroom_decodes_use_the_beam_and_the_committed_text_as_prompt() -> None:
    """Fast replay (no real-time clock): every decode uses the headroom beam; once text is
    committed before the window (a fresh window after a long pause), it prompts the decode."""
    policy, decoder = make_policy([[(0.0, 1.0, " We are done.")], [(0.0, 1.0, " Then we left.")]],
                                  realtime=False, headroom_beam_size=5, headroom_prompt_tokens=16)
    policy.begin(0)
    policy.finish(s(1.0))
    policy.begin(s(4.0))
    policy.finish(s(5.0))
    assert decoder.beams == [5, 5]
    assert decoder.prompts == [[], [2, 3, 4]]  # "We are done" (its mark is held): the fake tokenizer's ids


def test_a_decode_that_copies_its_prompt_is_decoded_again_without_it() -> None:
    """The second window's decode repeats eight words of the committed text it was prompted with
    (prompt_copy.py); the decode without the prompt is the one kept."""
    said = " one two three four five six seven eight nine."
    policy, decoder = make_policy([[(0.0, 3.0, said)], [(0.0, 3.0, said)], [(0.0, 1.0, " Ten.")]],
                                  realtime=False, headroom_beam_size=5, headroom_prompt_tokens=16)
    policy.begin(0)
    policy.finish(s(3.0))
    policy.begin(s(6.0))
    assert join_words(policy.finish(s(7.0)).committed) == ". Ten"
    assert [bool(p) for p in decoder.prompts] == [False, True, False]


def test_in_real_time_the_beam_is_used_only_while_it_fits_the_step() -> None:
    """The switch starts greedy, takes the beam once a greedy decode times the expected beam cost
    fits in `compute_share` of a step, and goes back to greedy when a beam decode does not fit."""
    switch = QualitySwitch(beam_size=5, budget_s=0.225)  # compute_share 0.45 * step_s 0.5
    assert switch.choose() is DecodeMode.GREEDY
    switch.observe(DecodeMode.GREEDY, 0.2)  # a beam would take about 0.5 s: too slow
    assert switch.choose() is DecodeMode.GREEDY
    switch.observe(DecodeMode.GREEDY, 0.03)
    switch.observe(DecodeMode.GREEDY, 0.03)
    switch.observe(DecodeMode.GREEDY, 0.03)
    switch.observe(DecodeMode.GREEDY, 0.03)
    assert switch.choose() is DecodeMode.BEAM
    switch.observe(DecodeMode.BEAM, 0.4)  # the machine got busy
    assert switch.choose() is DecodeMode.GREEDY
    assert QualitySwitch(beam_size=5, budget_s=0.225, realtime=False).choose() is DecodeMode.BEAM
    assert QualitySwitch(beam_size=1, budget_s=0.225, realtime=False).choose() is DecodeMode.GREEDY

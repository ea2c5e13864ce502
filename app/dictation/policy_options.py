"""Options of the streaming policy (policy.py) and the decode options it uses."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from app.dictation.commit_rule import CommitRule
from app.dictation.guards import GuardOptions
from app.engine.types import DecodeOptions


def streaming_decode_options(language: str | None = None, word_times: bool = False) -> DecodeOptions:
    """Greedy, single temperature, timestamps on (needed to trim at segment boundaries).
    `word_times`: every window's words are timed from the cross-attention (one extra
    teacher-forced decoder pass per decode), so committed words carry measured times, not
    times interpolated from character positions."""
    return DecodeOptions(
        language=language,
        beam_size=1,
        temperatures=(0.0,),
        condition_on_previous_text=False,
        without_timestamps=False,
        word_timestamps=word_times,
    )


@dataclass(frozen=True)
class PolicyOptions:
    """`step_s`: seconds of new audio between re-decodes while speech goes on.
    `compute_share`: in real time, the step grows to `decode time / compute_share`, so decoding
    keeps to this share of the machine (the user's other programs keep the rest) and falls
    behind on no machine.
    `trim_after_s`: trim a window longer than this at its last committed segment boundary.
    `max_window_s`: force-commit a window that reaches this length (must stay below 30).
    `prompt_tokens`: how many tokens of earlier committed text prompt the decoder (0 = none).
    `agreement`: how many consecutive hypotheses must agree on a word (both rules).
    `commit_margin_s`: under LocalAgreement, agreed words ending this close to the end of the
    audio stay tentative (the first decodes of an utterance hear only a fraction of a word, and
    may agree on a guess).
    `join_gap_s`: an utterance starting within this many seconds of the previous one keeps the
    previous (committed) audio in its window, so Whisper hears the whole sentence.
    `unjoin_after_s`: a joined window whose decode still writes nothing new once the new
    utterance has this much audio is given up and the utterance decoded alone (Whisper can end
    the text with the previous sentence and drop the new one whole).
    `unjoin_min_pause_s`: only an utterance that follows at least this much silence (VAD padding
    included) is given up that way: in continuous speech (short pauses) the joined window goes
    on with the same sentence, and decoding each utterance alone gets more words wrong.
    `unjoin_continuing_s`: after a shorter pause, the joined window is given up once the new
    utterance has this much audio and its decode still writes nothing new (a sentence said again
    right after itself: Whisper writes it once); 0 never.
    `hold_unfinished_s`: when the VAD ends an utterance whose hypothesis stops mid-sentence (no
    . ? ! after its last word), its words stay tentative this much longer: speech that resumes within it
    continues the same utterance and window (Whisper hearing "ask not" alone writes "asked not";
    with the rest of the sentence it writes "ask not"). 0 commits at every pause.
    `hold_max_speech_s`: only utterances with at most this much speech are held: a short fragment
    is what Whisper misreads without the rest of its sentence, and each held utterance that does
    not resume commits `hold_unfinished_s` later (a longer one carries its own context).
    `commit_rule`: which agreed words may be committed (commit_rule.py): LocalAgreement with the
    fixed `commit_margin_s`, or AlignAtt, which keeps words whose cross-attention reaches into the
    last `attention_margin_s` of audio tentative (it times every window's words from the
    alignment heads, so it decodes with `word_timestamps` whatever `decode` says; use it with
    agreement 2). AlignAtt is the default: it commits words about twice as soon as LocalAgreement-3
    with its fixed margin, at about the same word error rate (figures in docs/performance.md).
    `commit_rule=local-agreement agreement=3` is whisper_streaming's rule with a margin, for comparison.
    `min_commit_audio_s`, `min_word_probability`, `unsure_wait_s` (AlignAtt only): while an
    utterance goes on, nothing is committed before it has this much audio (s), and no agreed
    word under this probability (nor the words after it) until it ends `unsure_wait_s` before
    the audio does; the end of the utterance commits them (commit_rule.py says why).
    `close_sentences`: sentence shape across utterances (sentence_shape.py): a period between an
    utterance that ends without a mark and one that starts a sentence (in a fresh window only
    after `sentence_pause_s` of silence), the model's period kept before a capitalised word, and
    a period when the session stops mid-sentence.
    `headroom_beam_size`, `headroom_prompt_tokens`: where the machine has the headroom (every
    decode of fast replay; in real time while a beam decode fits in `compute_share` of a step),
    decodes use this beam and are prompted with this many tokens of the committed text before
    the window (decode_quality.py); greedy and `prompt_tokens` otherwise. 1 and 0: always greedy.
    `bridge_s`: before the first words of an utterance decoded in a fresh window are committed,
    this much (s) of the previous utterance's end is decoded with its audio so far, and the mark
    between them is the one that decode writes (bridge_decode.py: a pause inside a sentence is
    not a sentence end); 0 lets the pause and the fresh window's capital decide.
    `rest_after_s`: when the words of an utterance's final decode end this long (s) before the
    utterance does, and the voice detector heard speech there, that rest is decoded on its own
    (rest_decode.py: Whisper can stop writing before the audio ends); 0 turns it off (also
    after a sentence).
    `rest_after_sentence_s`: the same where those words end a sentence (. ? !), only once the
    rest is this long (s): a sound after a finished sentence is often one Whisper chose not to
    write (laughter), a sentence of its own lasts longer; 0 never.
    `final_beam_size`: the beam of the decode that ends an utterance (the worker's decode up to
    the end of speech, whose words `finish` commits without waiting for a second hypothesis to
    agree); 1 = greedy like the other decodes. Every other decode stays greedy: it only proposes
    words that a later decode must confirm."""

    step_s: float = 0.5
    compute_share: float = 0.45
    agreement: int = 2
    commit_margin_s: float = 1.5
    join_gap_s: float = 1.5
    unjoin_after_s: float = 1.0
    unjoin_min_pause_s: float = 0.8
    unjoin_continuing_s: float = 2.5
    trim_after_s: float = 10.0
    max_window_s: float = 24.0
    hold_unfinished_s: float = 0.5
    hold_max_speech_s: float = 2.5
    prompt_tokens: int = 0
    decode: DecodeOptions = field(default_factory=streaming_decode_options)
    guards: GuardOptions = field(default_factory=GuardOptions)
    commit_rule: CommitRule = CommitRule.ALIGN_ATT
    attention_margin_s: float = 0.4
    min_commit_audio_s: float = 1.0
    min_word_probability: float = 0.5
    unsure_wait_s: float = 2.0
    close_sentences: bool = True
    sentence_pause_s: float = 0.8
    final_beam_size: int = 1
    rest_after_s: float = 1.0
    rest_after_sentence_s: float = 2.0
    bridge_s: float = 3.0
    headroom_beam_size: int = 1
    headroom_prompt_tokens: int = 0

    def __post_init__(self) -> None:
        if self.agreement < 1:
            raise ValueError(f"agreement must be at least 1 hypothesis, not {self.agreement}")
        seconds = (
            "commit_margin_s",
            "attention_margin_s",
            "sentence_pause_s",
            "min_commit_audio_s",
            "unsure_wait_s",
            "unjoin_after_s",
            "unjoin_min_pause_s",
            "unjoin_continuing_s",
            "rest_after_s",
            "rest_after_sentence_s",
            "bridge_s",
        )
        negative = [name for name in seconds if getattr(self, name) < 0]
        if negative:
            raise ValueError(f"{', '.join(negative)} must not be negative")
        if not 0 <= self.min_word_probability <= 1:
            raise ValueError(f"min_word_probability must be between 0 and 1, not {self.min_word_probability}")
        if self.headroom_beam_size < 1 or self.headroom_prompt_tokens < 0:
            raise ValueError("headroom_beam_size must be at least 1 and headroom_prompt_tokens not negative")
        if self.final_beam_size < 1:
            raise ValueError(f"final_beam_size must be at least 1, not {self.final_beam_size}")
        if not 0 < self.max_window_s < 30:
            raise ValueError(f"max_window_s must be between 0 and 30 s, not {self.max_window_s}")

    def effective_decode(self) -> DecodeOptions:
        """The decode options the policy uses: AlignAtt needs every window's words timed."""
        if self.commit_rule is CommitRule.ALIGN_ATT and not self.decode.word_timestamps:
            return replace(self.decode, word_timestamps=True)
        return self.decode

    def final_decode(self) -> DecodeOptions:
        """The options of the decode that ends an utterance: `effective_decode` with
        `final_beam_size` (the beam decodes at temperature 0, like the greedy decodes)."""
        options = self.effective_decode()
        if self.final_beam_size == options.beam_size:
            return options
        return replace(options, beam_size=self.final_beam_size)


def unjoin_wait_s(options: PolicyOptions, pause_s: float) -> float:
    """How much audio (s) of an utterance that joined the previous one's window, after `pause_s`
    of silence, is decoded before a window that writes nothing new is given up (0: never)."""
    return options.unjoin_after_s if pause_s >= options.unjoin_min_pause_s else options.unjoin_continuing_s

"""Readable SRT/VTT cues by default: crafted timed words laid out within 42 characters x 2 lines and
7 s, cut at sentence and clause ends, never overlapping, 2 frames apart, each up long enough to read."""

from __future__ import annotations

import pytest
from subtitle_rules import SHORTEST_S, dangling_sentence_ends, read_cues, rule_breaks

from app.engine.export.formats import TranscriptMeta, render
from app.engine.export.subtitles import PER_SEGMENT, CueLayout, SubtitleOptions
from app.engine.types import Segment, Timings, Word
from app.engine.wer import normalize

STORY = ("So here is the thing, and I want you to listen carefully because it matters. "
         "We went down to the river on a cold morning in the middle of winter and found nothing there at all "
         "except a few old boats that nobody had used for years. Then we left. "
         "Honestly I do not know what we expected to find but it was not that.")


def spoken(text: str, start: float = 0.0, per_char_s: float = 0.06, gap_s: float = 0.0,
           pause_after_sentence_s: float = 0.4) -> list[Word]:
    """Words as a steady speaker says them: `per_char_s` a character, `gap_s` between words."""
    words, at = [], start
    for piece in text.split():
        length = per_char_s * (len(piece) + 1)
        words.append(Word(f" {piece}", round(at, 3), round(at + length, 3), 0.9))
        at += length + gap_s + (pause_after_sentence_s if piece.endswith((".", "?", "!")) else 0.0)
    return words


def segments_of(words: list[Word], per_segment: int = 12) -> list[Segment]:
    """Whisper-like segments: fixed runs of words, so segment ends fall mid-sentence."""
    runs = [words[i:i + per_segment] for i in range(0, len(words), per_segment)]
    return [Segment(i, run[0].start, run[-1].end, "".join(w.word for w in run), words=run)
            for i, run in enumerate(runs)]


def srt(segments: list[Segment], options: SubtitleOptions | None = None) -> str:
    end = max(s.end for s in segments) + 5.0
    return render("srt", segments, TranscriptMeta("talk.wav", "tiny.en", "fp32", "en", 1.0, end, Timings()), options)


def test_a_story_becomes_readable_cues_that_keep_every_word() -> None:
    segments = segments_of(spoken(STORY))
    cues = read_cues(srt(segments))
    assert rule_breaks(cues) == []
    assert normalize(" ".join(c.text for c in cues)) == normalize(STORY)
    assert dangling_sentence_ends(cues) == []
    texts = [c.text for c in cues]
    assert "Then we left." in " ".join(texts) and any(t.endswith("for years.") or t.endswith("Then we left.")
                                                        for t in texts)
    assert all(not t.endswith(("the", "a", "of", "to")) for t in texts), texts  # never cut after a little word


def test_sentences_that_fit_a_cue_each_get_their_own() -> None:
    text = ("The meeting starts at nine tomorrow morning in the big hall. "
            "Please bring the notes from last week and your questions for the team.")
    cues = read_cues(srt(segments_of(spoken(text), per_segment=7)))
    assert [c.text for c in cues] == ["The meeting starts at nine tomorrow morning in the big hall.",
                                      "Please bring the notes from last week and your questions for the team."]


def test_two_lines_break_after_the_clause_and_balance() -> None:
    text = "When we reached the old bridge at last, everybody sat down to rest."
    (cue,) = read_cues(srt(segments_of(spoken(text, per_char_s=0.05), per_segment=20)))
    assert cue.lines == ["When we reached the old bridge at last,", "everybody sat down to rest."]


def test_a_line_that_fits_stays_one_line() -> None:
    (cue,) = read_cues(srt(segments_of(spoken("Thank you all for coming."))))
    assert cue.lines == ["Thank you all for coming."]


def test_slow_speech_is_cut_every_seven_seconds_at_most() -> None:
    words = spoken("one two three four five six seven eight nine ten eleven twelve", per_char_s=0.3, gap_s=0.4)
    cues = read_cues(srt(segments_of(words)))
    assert len(cues) >= 3 and rule_breaks(cues) == []


def test_words_said_without_a_pause_still_leave_two_frames_between_cues() -> None:
    cues = read_cues(srt(segments_of(spoken(STORY, pause_after_sentence_s=0.0))))
    assert len(cues) >= 4 and rule_breaks(cues) == []


def test_a_quick_word_stays_up_long_enough_to_read_when_a_pause_follows() -> None:
    words = [Word(" Yes.", 1.0, 1.2, 0.9), *spoken("I will be there on time.", start=4.0)]
    cues = read_cues(srt([Segment(0, 1.0, 6.0, "".join(w.word for w in words), words=words)]))
    assert cues[0].text == "Yes." and cues[0].end - cues[0].start >= SHORTEST_S
    assert cues[1].start == pytest.approx(4.0)


def test_a_long_pause_always_cuts_the_cue() -> None:
    words = [*spoken("I think"), *spoken("so.", start=5.0)]
    cues = read_cues(srt([Segment(0, 0.0, 6.0, "".join(w.word for w in words), words=words)]))
    assert [c.text for c in cues] == ["I think", "so."]


def test_a_word_longer_than_a_line_gets_a_line_of_its_own() -> None:
    long_word = "Pneumonoultramicroscopicsilicovolcanoconiosis-like"
    cues = read_cues(srt(segments_of(spoken(f"He said {long_word} twice."))))
    assert [c.lines for c in cues] == [["He said"], [long_word, "twice."]]


def test_segments_without_word_times_are_laid_out_the_same_way() -> None:
    timed = segments_of(spoken(STORY))
    untimed = [Segment(s.id, s.start, s.end, s.text) for s in timed]  # e.g. a dictation's utterances
    cues = read_cues(srt(untimed))
    assert rule_breaks(cues) == [] and len(cues) >= 4
    assert normalize(" ".join(c.text for c in cues)) == normalize(STORY)


def test_one_cue_per_segment_remains_available_and_never_overlaps() -> None:
    segments = [Segment(0, 0.0, 4.0, " First part of a long line that goes on and on and on past the limit"),
                Segment(1, 3.0, 5.0, " Second.")]
    cues = read_cues(srt(segments, PER_SEGMENT))
    assert [c.text for c in cues] == [s.text.strip() for s in segments]
    assert cues[0].end <= cues[1].start == 3.0


def test_highlighting_needs_word_cues() -> None:
    assert SubtitleOptions(layout=CueLayout.SEGMENTS).word_level is False
    assert SubtitleOptions().word_level is True

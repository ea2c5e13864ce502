"""TXT transcripts read as paragraphs: segments joined into sentences, a new paragraph only where
a sentence ends (after a pause, or once a paragraph is long), never one line per segment."""

from __future__ import annotations

from app.engine.export.formats import TranscriptMeta, render
from app.engine.export.paragraphs import PARAGRAPH_CHARS
from app.engine.types import Segment, Timings


def _meta(language: str = "en") -> TranscriptMeta:
    return TranscriptMeta("talk.wav", "tiny.en", "fp32", language, 1.0, 600.0, Timings())


def _segments(*spans: tuple[float, float, str]) -> list[Segment]:
    return [Segment(i, start, end, text) for i, (start, end, text) in enumerate(spans)]


def test_segments_split_mid_sentence_are_joined() -> None:
    segments = _segments((0.0, 4.0, " So the plan for"), (4.0, 7.5, " next week is simple."),
                         (7.6, 9.0, " We test it."), (12.0, 14.0, " Then we ship on"),
                         (20.0, 22.0, " Monday, after lunch."))

    text = render("txt", segments, _meta())

    assert text == ("So the plan for next week is simple. We test it.\n\n"  # 3 s pause after a full stop
                    "Then we ship on Monday, after lunch.\n")  # a 6 s pause mid-sentence: same line


def test_a_long_paragraph_ends_at_a_sentence_end() -> None:
    sentence = " This sentence is about sixty characters long, give or take."
    segments = _segments(*[(i * 4.0, i * 4.0 + 4.0, sentence) for i in range(20)])

    paragraphs = render("txt", segments, _meta()).rstrip("\n").split("\n\n")

    assert len(paragraphs) > 1
    assert all(p.endswith("take.") for p in paragraphs)
    assert all(len(p) < PARAGRAPH_CHARS + len(sentence) for p in paragraphs)
    assert " ".join(paragraphs) == " ".join(s.strip() for s in [sentence] * 20)


def test_languages_without_spaces_are_joined_directly() -> None:
    segments = _segments((0.0, 2.0, "今天天气"), (2.0, 4.0, "很好。"), (8.0, 9.0, "我们走吧。"))

    assert render("txt", segments, _meta("zh")) == "今天天气很好。\n\n我们走吧。\n"

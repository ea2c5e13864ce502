"""Word-level SRT/VTT on a real transcription (line limits, highlighting) and `earshot transcribe`'s
word times and cue options."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from earshot_testing import DATA_DIR, read_wav
from test_transcribe_cli import earshot

from app.engine.export.formats import TranscriptMeta, render
from app.engine.export.subtitles import SubtitleOptions
from app.engine.types import DecodeOptions, Segment, Timings, Word
from app.engine.wer import normalize

CUE = re.compile(r"(\d\d:\d\d:\d\d[.,]\d\d\d) --> (\d\d:\d\d:\d\d[.,]\d\d\d)\n((?:.+\n?)+)")


@pytest.fixture(scope="module")
def segments(engine) -> list[Segment]:  # type: ignore[no-untyped-def]
    audio = read_wav(DATA_DIR / "espeak_morning.wav")
    found, _ = engine.transcribe(audio, DecodeOptions(word_timestamps=True))
    return list(found)


def _meta() -> TranscriptMeta:
    return TranscriptMeta("clip.wav", "tiny.en", "fp32", "en", 1.0, 8.0, Timings())


def _seconds(stamp: str) -> float:
    h, m, s = stamp.replace(",", ".").split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


def _cues(text: str) -> list[tuple[float, float, list[str]]]:
    return [(_seconds(a), _seconds(b), body.strip("\n").split("\n")) for a, b, body in CUE.findall(text)]


@pytest.mark.parametrize("fmt", ["srt", "vtt"])
@pytest.mark.parametrize(("width", "count"), [(20, 2), (42, 1), (12, None), (None, 1)])
def test_cues_respect_the_line_limits_and_keep_every_word(segments, fmt, width, count):
    text = render(fmt, segments, _meta(), SubtitleOptions(width, count))
    cues = _cues(text)
    words = [w for s in segments for w in s.words or []]
    longest_word = max(len(w.word.strip()) for w in words)
    for start, end, lines in cues:
        assert start <= end
        assert count is None or len(lines) <= count
        assert width is None or all(len(line) <= max(width, longest_word) for line in lines)
    assert all(b[0] >= a[1] for a, b in itertools.pairwise(cues))  # in order, no overlap
    assert normalize(" ".join(line for _, _, lines in cues for line in lines)) == normalize(
        " ".join(s.text for s in segments))


def test_highlighted_vtt_underlines_each_word_while_it_is_spoken(segments):
    text = render("vtt", segments, _meta(), SubtitleOptions(max_line_width=42, highlight_words=True))
    words = [w for s in segments for w in s.words or []]
    underlined = [(start, end, re.findall(r"<u>(.*?)</u>", "\n".join(lines))) for start, end, lines in _cues(text)]
    marked = [(start, end, found[0]) for start, end, found in underlined if found]
    assert [m[2] for m in marked] == [w.word.strip() for w in words if w.end > w.start]
    # each word is underlined while it is spoken, cut short only by the 2 frames before the next cue
    spans = [(w.start, w.end) for w in words if w.end > w.start]
    assert all(abs(a - s) <= 0.001 and e - 0.081 <= b <= e + 0.001
               for (a, b, _), (s, e) in zip(marked, spans, strict=True))


def test_words_and_line_breaks_never_change_the_txt(segments):
    assert render("txt", segments, _meta(), SubtitleOptions(10, 1)) == render("txt", segments, _meta())


def test_options_that_cannot_hold_a_line_are_refused():
    with pytest.raises(ValueError, match="max-line-width"):
        SubtitleOptions(max_line_width=0)


def test_vtt_cue_text_is_escaped():
    seg = Segment(1, 0.0, 1.0, " a<b & c", words=[Word(" a<b", 0.0, 0.5, 1.0), Word(" &", 0.5, 0.6, 1.0),
                                                    Word(" c", 0.6, 1.0, 1.0)])
    text = render("vtt", [seg], _meta(), SubtitleOptions(max_line_width=40))
    assert "a&lt;b &amp; c" in text


def test_cli_writes_word_timed_json_and_srt(tmp_path: Path):
    clip = DATA_DIR / "espeak_words.wav"
    result = earshot("transcribe", "--word-timestamps", "--format", "json", "--format", "srt",
                     "--max-line-width", "24", "--max-line-count", "2", str(clip), "--output-dir", str(tmp_path))
    assert result.returncode == 0, result.stderr
    document = json.loads((tmp_path / "espeak_words.json").read_text(encoding="utf-8"))
    words = [w for s in document["segments"] for w in s["words"]]
    truth = json.loads((DATA_DIR / "espeak_words.json").read_text(encoding="utf-8"))["words"]
    assert [normalize(w["word"]) for w in words] == [normalize(t["word"]) for t in truth]
    assert set(words[0]) == {"word", "start", "end", "probability"}
    assert all(round(w["start"], 3) == w["start"] and w["end"] <= document["duration_s"] for w in words)
    cues = _cues((tmp_path / "espeak_words.srt").read_text(encoding="utf-8"))
    assert len(cues) >= 2 and all(len(lines) <= 2 and all(len(x) <= 24 for x in lines) for _, _, lines in cues)


def test_cli_writes_readable_word_timed_srt_without_being_asked(tmp_path: Path):
    clip = DATA_DIR / "espeak_words.wav"
    result = earshot("transcribe", "--format", "srt", str(clip), "--output-dir", str(tmp_path))
    assert result.returncode == 0, result.stderr
    cues = _cues((tmp_path / "espeak_words.srt").read_text(encoding="utf-8"))
    assert len(cues) >= 2 and all(len(lines) <= 2 and all(len(x) <= 42 for x in lines) for _, _, lines in cues)
    result = earshot("transcribe", "--format", "srt", "--cues", "segments", str(clip), "--output-dir", str(tmp_path))
    assert result.returncode == 0, result.stderr
    cues = _cues((tmp_path / "espeak_words.srt").read_text(encoding="utf-8"))
    assert len(cues) == 1 and len(cues[0][2]) == 1 and len(cues[0][2][0]) > 42  # the segment, as it was


def test_cli_refuses_cue_options_that_cannot_work(tmp_path: Path):
    clip = str(DATA_DIR / "espeak_words.wav")
    result = earshot("transcribe", "--max-line-width", "0", clip)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == ["earshot: error: max-line-width must be at least 1, not 0"]
    result = earshot("transcribe", "--cues", "segments", "--highlight-words", clip)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "earshot: error: --highlight-words needs readable cues, not --cues segments"]

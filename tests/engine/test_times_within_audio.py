"""No time past the audio's end: the last SRT/VTT cue, JSON segments and words, the engine's own
segments and `earshot transcribe` output all end at or before the file does (a 54.5 s file can
get a cue ending at 56.24 s: Whisper reads the last window padded to 30 s)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from earshot_testing import DATA_DIR, read_wav, write_wav
from test_transcribe_cli import earshot

from app.engine.export.formats import TranscriptMeta, render
from app.engine.export.subtitles import SubtitleOptions
from app.engine.types import DecodeOptions, Segment, Timings, Word

STAMP = re.compile(r"(\d\d):(\d\d):(\d\d)[,.](\d\d\d)")
CUT_S = 1.5  # espeak_meeting.wav cut while it still speaks: tiny.en then ends its segment at 2.0 s


def _meta(duration_s: float) -> TranscriptMeta:
    return TranscriptMeta("talk.wav", "tiny.en", "fp32", "en", 1.0, duration_s, Timings())


def _cue_ends(text: str) -> list[float]:
    ends = []
    for line in text.splitlines():
        if " --> " in line:
            h, m, s, ms = STAMP.findall(line)[1]
            ends.append(int(h) * 3600 + int(m) * 60 + int(s) + int(ms) / 1000)
    return ends


def _late_segments() -> list[Segment]:
    words = [Word(" We", 52.0, 52.4, 0.9), Word(" ship", 52.4, 55.1, 0.9), Word(" Monday.", 55.1, 56.24, 0.9)]
    return [Segment(0, 0.0, 3.0, " Hello.", [1]), Segment(1, 52.0, 56.24, " We ship Monday.", [2], words=words)]


def test_last_cue_and_words_end_with_the_audio() -> None:
    segments, meta = _late_segments(), _meta(54.5)

    for fmt in ("srt", "vtt"):
        assert _cue_ends(render(fmt, segments, meta))[-1] == 54.5, fmt
        word_level = render(fmt, segments, meta, SubtitleOptions(42, 2, highlight_words=True))
        assert max(_cue_ends(word_level)) == 54.5, fmt
    document = json.loads(render("json", segments, meta))
    assert document["segments"][-1]["end"] == 54.5
    assert [w["end"] for w in document["segments"][-1]["words"]] == [52.4, 54.5, 54.5]
    assert segments[1].end == 56.24  # the caller's segments are not changed


def test_engine_segments_end_with_the_audio(engine, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    audio = read_wav(DATA_DIR / "espeak_meeting.wav")[: round(CUT_S * 16_000)]

    for word_timestamps in (False, True):
        found, info = engine.transcribe(audio, DecodeOptions(beam_size=1, word_timestamps=word_timestamps))
        segments = list(found)

        assert segments and info.duration_s == CUT_S
        assert max(s.end for s in segments) <= CUT_S, word_timestamps
        assert all(w.end <= CUT_S for s in segments for w in s.words or [])


def test_cli_srt_ends_with_the_audio(tmp_path: Path) -> None:
    clip = tmp_path / "cut.wav"
    write_wav(clip, read_wav(DATA_DIR / "espeak_meeting.wav")[: round(CUT_S * 16_000)])

    result = earshot("transcribe", str(clip), "--format", "srt", "--format", "vtt", "--beam-size", "1",
                     "--output-dir", str(tmp_path))

    assert result.returncode == 0, result.stderr
    for fmt in ("srt", "vtt"):
        ends = _cue_ends((tmp_path / f"cut.{fmt}").read_text())
        assert ends and max(ends) <= CUT_S, (fmt, ends)

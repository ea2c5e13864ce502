"""Transcript export: what a subtitle player or a script reading the JSON would see."""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from app.engine.export.formats import (
    FORMATS,
    ExportError,
    TranscriptMeta,
    render,
    write_transcript,
)
from app.engine.export.subtitles import PER_SEGMENT
from app.engine.types import Segment, Timings

REPO_ROOT = Path(__file__).resolve().parents[2]

SEGMENTS = [
    Segment(0, 0.0, 1.23, " Hello world. ", [50364, 2425, 1002, 13], -0.25, 0.01, 0.0),
    Segment(1, 59.9996, 62.5, " Ünïcödé — café, 你好 <b> & -->", [1, 2, 3], -0.5, 0.02, 0.2),
    Segment(2, 62.5, 62.5, "   ", [], -1.0, 0.9, 0.0),  # nothing said: no cue, no line
    Segment(3, 3725.042, 3730.999, " Over an hour\nin. ", [4], -0.1, 0.0, 0.0),
    Segment(4, 360_000.0, 360_001.5, " A hundred hours.", [5], -0.1, 0.0, 0.0),
]
TEXTS = ["Hello world.", "Ünïcödé — café, 你好 <b> & -->", "Over an hour in.", "A hundred hours."]
SPANS_MS = [(0, 1230), (60_000, 62_500), (3_725_042, 3_730_999), (360_000_000, 360_001_500)]

META = TranscriptMeta(
    file="recordings/réunion.m4a",
    model="tiny.en",
    precision="fp32",
    language="en",
    language_probability=1.0,
    duration_s=360_001.5,
    timings=Timings(0.5, 0.1, 0.2, 1.5, 2.5, 4.8, 42, 3),
)

TIME = r"(\d{2,}):(\d{2}):(\d{2})[,.](\d{3})"


def to_ms(h: str, m: str, s: str, ms: str) -> int:
    return ((int(h) * 60 + int(m)) * 60 + int(s)) * 1000 + int(ms)


def parse_srt(text: str) -> list[tuple[int, int, int, str]]:
    """(counter, start ms, end ms, text) per cue; fails on anything not strict SRT."""
    cues = []
    for block in text.strip("\n").split("\n\n"):
        counter, timing, *lines = block.split("\n")
        match = re.fullmatch(f"{TIME} --> {TIME}", timing)
        assert match and "," in timing, timing
        g = match.groups()
        cues.append((int(counter), to_ms(*g[:4]), to_ms(*g[4:]), "\n".join(lines)))
    return cues


def parse_vtt(text: str) -> list[tuple[int, int, str]]:
    """(start ms, end ms, unescaped text) per cue of a WebVTT file without cue ids."""
    header, *blocks = text.strip("\n").split("\n\n")
    assert header == "WEBVTT"
    cues = []
    for block in blocks:
        timing, *lines = block.split("\n")
        match = re.fullmatch(f"{TIME} --> {TIME}", timing)
        assert match and "," not in timing, timing
        body = "\n".join(lines)
        assert "-->" not in body and "<" not in body
        g = match.groups()
        cues.append((to_ms(*g[:4]), to_ms(*g[4:]), html.unescape(body)))
    return cues


def test_txt_is_paragraphs_of_the_spoken_segments() -> None:
    # A paragraph ends only where a sentence ends and the speaker paused (here: long gaps).
    assert render("txt", SEGMENTS, META) == f"{TEXTS[0]}\n\n{TEXTS[1]} {TEXTS[2]}\n\n{TEXTS[3]}\n"


def test_srt_round_trips_times_and_text() -> None:
    text = render("srt", SEGMENTS, META, PER_SEGMENT)

    cues = parse_srt(text)
    assert [c[0] for c in cues] == [1, 2, 3, 4]
    assert [(c[1], c[2]) for c in cues] == SPANS_MS
    assert [c[3] for c in cues] == TEXTS
    assert text.startswith("1\n00:00:00,000 --> 00:00:01,230\nHello world.\n\n2\n")
    assert "01:02:05,042 --> 01:02:10,999" in text
    assert "100:00:00,000 --> 100:00:01,500" in text


def test_vtt_round_trips_times_and_escaped_text() -> None:
    text = render("vtt", SEGMENTS, META, PER_SEGMENT)

    cues = parse_vtt(text)
    assert [(c[0], c[1]) for c in cues] == SPANS_MS
    assert [c[2] for c in cues] == TEXTS
    assert text.startswith("WEBVTT\n\n00:00:00.000 --> 00:00:01.230\nHello world.\n")
    assert "&lt;b&gt; &amp; --&gt;" in text


SEGMENT_KEYS = {"id", "start", "end", "text", "tokens", "avg_logprob", "no_speech_prob"}
SEGMENT_KEYS |= {"temperature"}
TIMING_KEYS = {"load_s", "decode_audio_s", "features_s", "encoder_s", "decoder_s", "total_s"}
TIMING_KEYS |= {"n_tokens"}
TOP_KEYS = {"file", "model", "precision", "language", "language_probability", "duration_s"}
TOP_KEYS |= {"text", "segments", "timings"}


def check_schema(doc: dict[str, object]) -> None:
    """The documented JSON schema: exactly these keys, with these types."""
    assert set(doc) == TOP_KEYS
    for key in ("file", "model", "precision", "language", "text"):
        assert isinstance(doc[key], str), key
    for key in ("language_probability", "duration_s"):
        assert isinstance(doc[key], float), key
    timings = doc["timings"]
    assert isinstance(timings, dict) and set(timings) == TIMING_KEYS
    assert isinstance(timings["n_tokens"], int)
    assert all(isinstance(timings[k], float) for k in TIMING_KEYS - {"n_tokens"})
    segments = doc["segments"]
    assert isinstance(segments, list)
    for seg in segments:
        assert set(seg) == SEGMENT_KEYS
        assert isinstance(seg["id"], int) and isinstance(seg["text"], str)
        assert all(isinstance(t, int) for t in seg["tokens"])
        for key in ("start", "end", "avg_logprob", "no_speech_prob", "temperature"):
            assert isinstance(seg[key], float), key


def test_json_follows_the_schema_and_keeps_every_segment() -> None:
    doc = json.loads(render("json", SEGMENTS, META))

    check_schema(doc)
    assert doc["file"] == "recordings/réunion.m4a"
    assert doc["text"] == " ".join(TEXTS)
    assert [s["id"] for s in doc["segments"]] == [0, 1, 2, 3, 4]
    assert doc["segments"][1]["text"] == TEXTS[1]
    assert doc["segments"][1]["start"] == 60.0
    assert doc["segments"][0]["tokens"] == [50364, 2425, 1002, 13]
    assert doc["segments"][1]["temperature"] == 0.2
    assert doc["timings"] == {
        "load_s": 0.5,
        "decode_audio_s": 0.1,
        "features_s": 0.2,
        "encoder_s": 1.5,
        "decoder_s": 2.5,
        "total_s": 4.8,
        "n_tokens": 42,
    }


def test_json_is_readable_utf8_and_never_nan() -> None:
    broken = [Segment(0, 0.0, 1.0, "写真", [7], float("-inf"), float("nan"), 0.0)]
    meta = TranscriptMeta("会議.wav", "base", "int8", "ja", 0.93, 1.0, Timings())

    text = render("json", broken, meta)

    assert "写真" in text and "\\u" not in text
    doc = json.loads(text)
    assert doc["segments"][0]["avg_logprob"] is None
    assert doc["segments"][0]["no_speech_prob"] is None


def test_languages_without_spaces_join_segments_directly() -> None:
    segments = [Segment(0, 0.0, 1.0, "你好。"), Segment(1, 1.0, 2.0, "世界。")]
    meta = TranscriptMeta("a.wav", "base", "fp32", "zh", 0.9, 2.0, Timings())

    assert json.loads(render("json", segments, meta))["text"] == "你好。世界。"


def test_no_segments_gives_valid_empty_documents() -> None:
    assert render("txt", [], META) == ""
    assert render("srt", [], META) == ""
    assert render("vtt", [], META) == "WEBVTT\n"
    assert json.loads(render("json", [], META))["segments"] == []


def test_unknown_format_is_rejected() -> None:
    with pytest.raises(ValueError, match="docx"):
        render("docx", SEGMENTS, META)


@pytest.mark.parametrize("fmt", FORMATS)
def test_write_transcript_writes_stem_dot_format(tmp_path: Path, fmt: str) -> None:
    out = tmp_path / "new" / "folder"

    path = write_transcript(fmt, SEGMENTS, META, out, "réunion")

    assert path == out / f"réunion.{fmt}"
    assert path.read_text(encoding="utf-8") == render(fmt, SEGMENTS, META)
    assert os.listdir(out) == [f"réunion.{fmt}"]


def test_write_into_a_path_inside_a_file_fails_cleanly(tmp_path: Path) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("keep me")

    with pytest.raises(ExportError) as caught:
        write_transcript("srt", SEGMENTS, META, a_file / "sub", "talk")

    message = str(caught.value)
    assert "talk.srt" in message and "\n" not in message
    assert a_file.read_text() == "keep me"
    assert sorted(os.listdir(tmp_path)) == ["notes.txt"]


def test_disk_full_mid_write_keeps_the_old_file_and_leaves_no_partial(tmp_path: Path) -> None:
    """A real write failure: RLIMIT_FSIZE makes the kernel refuse writes past 2 kB (EFBIG).

    Run in a child process so the limit cannot touch pytest's own files.
    """
    old = tmp_path / "lecture.json"
    old.write_text('{"old": true}\n')
    child = textwrap.dedent(
        f"""
        import resource, signal, sys
        from app.engine.export.formats import ExportError, TranscriptMeta, write_transcript
        from app.engine.types import Segment, Timings
        from pathlib import Path
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))
        segments = [Segment(i, i, i + 1, " word" * 20, list(range(20))) for i in range(200)]
        meta = TranscriptMeta("lecture.mp3", "tiny.en", "fp32", "en", 1.0, 200.0, Timings())
        try:
            write_transcript("json", segments, meta, Path({str(tmp_path)!r}), "lecture")
        except ExportError as error:
            print(error)
            sys.exit(3)
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", child], cwd=REPO_ROOT, capture_output=True, text=True, timeout=60
    )

    assert result.returncode == 3, result.stderr
    assert "lecture.json" in result.stdout and "File too large" in result.stdout
    assert old.read_text() == '{"old": true}\n'
    assert os.listdir(tmp_path) == ["lecture.json"]

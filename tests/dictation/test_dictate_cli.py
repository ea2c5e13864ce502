"""`earshot dictate --input FILE --json` replays a file through the live path and prints events."""

from __future__ import annotations

import difflib
import itertools
import json

import numpy as np
import pytest
from earshot_testing import DATA_DIR, SHARED_SPEECH, espeak_clips, needs_shared, read_wav, write_wav

from app.cli import main
from app.engine.wer import normalize, word_error_rate

EVENT_KEYS = {"type", "text", "utterance", "audio_start_s", "audio_end_s", "latency_ms"}
COMMIT_KEYS = EVENT_KEYS | {"words"}  # commit and final events carry their words' times
WORD_CLIP = json.loads((DATA_DIR / "espeak_words.json").read_text(encoding="utf-8"))
SUMMARY_KEYS = {"type", "commit_latency_ms_p50", "commit_latency_ms_p95", "first_tentative_ms_p50",
                "compute_ratio", "overflows"}


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict]:  # type: ignore[type-arg]
    assert main(["dictate", "--json", *args]) == 0
    out = capsys.readouterr().out
    return [json.loads(line) for line in out.splitlines()]


def transcript(lines: list[dict]) -> str:  # type: ignore[type-arg]
    return "".join(line["text"] for line in lines if line["type"] in ("commit", "final"))


def test_json_lines_carry_the_transcript_and_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    clip = next(c for c in espeak_clips() if c["file"] == "espeak_laptop.wav")
    lines = run_json(capsys, "--input", str(DATA_DIR / clip["file"]))
    assert lines[-1]["type"] == "summary" and set(lines[-1]) >= SUMMARY_KEYS
    assert lines[-1]["overflows"] == 0
    events = lines[:-1]
    assert events and all(set(e) == (EVENT_KEYS if e["type"] == "tentative" else COMMIT_KEYS) for e in events)
    assert {e["type"] for e in events} <= {"tentative", "commit", "final"}
    # the last utterance's final, then (the session over) the end mark held after it, if any
    if events[-1]["type"] == "commit":
        assert not normalize(events[-1]["text"]), events[-1]
        events = events[:-1]
    assert events[-1]["type"] == "final"
    assert word_error_rate([clip["text"]], [transcript(lines)]) <= 20.0, transcript(lines)


def test_committed_words_carry_times_near_the_spoken_word_edges(capsys: pytest.CaptureFixture[str]) -> None:
    """espeak_words.wav was spoken word by word with known silences (its .json has the edges):
    the committed words' times, from the decoder's cross-attention, are within 0.3 s of them,
    sorted, non-overlapping and inside the session; each event's words join to its text."""
    lines = run_json(capsys, "--input", str(DATA_DIR / WORD_CLIP["file"]))
    commits = [e for e in lines if e["type"] in ("commit", "final")]
    assert all("".join(w["word"] for w in e["words"]) == e["text"] for e in commits)
    words = [w for e in commits for w in e["words"]]
    duration = lines[-1]["audio_s"]
    assert all(0.0 <= w["start"] <= w["end"] <= duration for w in words)
    assert all(a["end"] <= b["start"] for a, b in itertools.pairwise(words))
    spoken = [w for w in words if normalize(w["word"])]
    truth = WORD_CLIP["words"]
    matcher = difflib.SequenceMatcher(None, [normalize(w["word"]) for w in spoken],
                                      [normalize(t["word"]) for t in truth])
    pairs = [(spoken[b.a + k], truth[b.b + k]) for b in matcher.get_matching_blocks() for k in range(b.size)]
    assert len(pairs) >= len(truth) - 2, [w["word"] for w in spoken]  # live decoding may miss a word
    errors = [(ours["word"], round(ours["start"] - t["start"], 3), round(ours["end"] - t["end"], 3))
              for ours, t in pairs]
    assert all(abs(start) <= 0.3 and abs(end) <= 0.3 for _, start, end in errors), errors


def test_unreadable_input_is_a_one_line_error(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "broken.wav"
    bad.write_bytes(b"RIFF\x00\x00 not really a wav")
    assert main(["dictate", "--input", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("earshot dictate: ")


@needs_shared
@pytest.mark.shared
@pytest.mark.slow
def test_jfk_in_real_time_prints_the_sentence_as_commits(capsys: pytest.CaptureFixture[str]) -> None:
    """JFK replayed in real time, as a user tries it first. The decode cadence follows the machine's
    speed, so the text is checked for the phrases openai/whisper's own test asserts, and latency
    figures are printed, not asserted (shared CPU)."""
    lines = run_json(capsys, "--input", str(SHARED_SPEECH / "en_jfk_inaugural.wav"), "--realtime")
    text = normalize(transcript(lines))
    for phrase in ("fellow americans", "your country", "do for you", "can do for your country"):
        assert phrase in text, text
    assert all(line["latency_ms"] > 0 for line in lines[:-1])
    summary = lines[-1]
    assert summary["type"] == "summary" and summary["overflows"] == 0
    assert summary["commit_latency_ms_p50"] is not None
    print(json.dumps(summary))


def test_plain_output_is_one_line_per_utterance_each_ending_with_its_mark(
        tmp_path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    """Two sentences 1.5 s apart, as a user reads them in a terminal: two lines, each ending with its
    own closing mark (the mark is committed with the next utterance, so it must not open a line of
    its own), and the output ends with a line break."""
    silence = np.zeros(int(1.5 * 16000), dtype=np.float32)
    audio = np.concatenate([read_wav(DATA_DIR / "espeak_weather.wav"), silence,
                            read_wav(DATA_DIR / "espeak_meeting.wav")])
    clip = tmp_path / "two_sentences.wav"
    write_wav(clip, audio)
    assert main(["dictate", "--input", str(clip)]) == 0
    out = capsys.readouterr().out
    assert out.endswith("\n"), repr(out)
    lines = out.splitlines()
    assert len(lines) == 2, out
    for line in lines:
        assert line[:1].isupper() and line.endswith((".", "?", "!")), out
    assert "west" in lines[0].lower() and "team" in lines[1].lower(), out

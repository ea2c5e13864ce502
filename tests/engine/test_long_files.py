"""Long files: memory does not grow with the length, silence/noise/music give no text (and are
not decoded), quiet and whispered speech still are, and batched loses no words against
sequential. Real tiny.en, real files decoded by PyAV, the real Silero VAD."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from earshot_testing import DATA_DIR, REPO_ROOT, espeak_clips, read_wav
from long_recordings import Background, at_level, utterances, write_recording

from app.audio.file_stream import open_file_stream
from app.audio.vad import SileroVadModel
from app.engine.types import DecodeOptions
from app.engine.wer import normalize

ROBUSTNESS = REPO_ROOT.parent / "shared" / "data" / "robustness"
GREEDY = DecodeOptions(beam_size=1)

_PEAK_RSS = """
import resource, sys
from app.cli import main
code = main(sys.argv[1:])
print("PEAK_RSS_KB", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
sys.exit(code)
"""


def _cli_peak(path: Path) -> tuple[list[str], int]:
    """`earshot transcribe FILE --format json` in a fresh process: segment texts, peak RSS in kB."""
    run = subprocess.run([sys.executable, "-c", _PEAK_RSS, "transcribe", str(path), "--precision", "fp32",
                          "--beam-size", "1", "--format", "json"],
                         cwd=REPO_ROOT, capture_output=True, text=True, timeout=600, check=True)
    peak = int(run.stderr.rsplit("PEAK_RSS_KB", 1)[1].split()[0])
    return [s["text"] for s in json.loads(run.stdout)["segments"]], peak


def _found(text: str, texts: list[str]) -> bool:
    """The clip's first and last three words are in one of the transcribed texts."""
    words = normalize(text).split()
    joined = f" {normalize(' '.join(texts))} "
    return f" {' '.join(words[:3])} " in joined and f" {' '.join(words[-3:])} " in joined


def test_three_hours_take_the_memory_of_five_minutes_and_keep_their_speech(engine, tmp_path):
    """A 3-hour file (near-silence at -90 dBFS with four sentences) peaks within 10 % of the
    RSS of a 5-minute one made the same way, and every sentence is transcribed once."""
    clips = espeak_clips()[:4]
    audio = [read_wav(DATA_DIR / c["file"]) for c in clips]
    runs = {}
    for name, seconds, starts in (("5min", 300, (10, 100, 200, 290)),
                                  ("3h", 3 * 3600, (10, 3600, 7200, 3 * 3600 - 10))):
        path = write_recording(tmp_path / f"{name}.wav", seconds, list(zip(starts, audio, strict=True)))
        runs[name] = _cli_peak(path)
        path.unlink()
    for texts, _ in runs.values():
        assert len(texts) == len(clips), texts  # nothing made up in the silence
        assert all(_found(c["text"], texts) for c in clips), texts
    assert runs["3h"][1] <= 1.10 * runs["5min"][1], {k: v[1] // 1024 for k, v in runs.items()}


@pytest.mark.parametrize("kind", [Background.SILENCE, Background.NOISE, Background.MUSIC], ids=lambda k: k.value)
def test_ten_minutes_of_silence_noise_or_music_give_no_text(engine, tmp_path, kind):
    path = write_recording(tmp_path / f"{kind.value}.wav", 600, kind=kind)
    stream = open_file_stream(path)
    segments, info = engine.transcribe(stream.chunks, GREEDY, duration_s=stream.duration_s, speech=SileroVadModel())
    assert [s.text for s in list(segments)] == []
    assert info.duration_s == pytest.approx(600)
    if kind is not Background.MUSIC:
        assert info.timings.n_windows == 0  # nothing was even decoded


def _quiet_speech() -> list[tuple[np.ndarray, str]]:
    """A sentence at -30 dBFS, and the whispered recordings of ../shared/data/robustness."""
    clip = espeak_clips()[0]
    quiet = [(at_level(read_wav(DATA_DIR / clip["file"]), -30.0), clip["text"])]
    whispers = [ROBUSTNESS / "en_mfa_whisper_all.wav", ROBUSTNESS / "en_mfa_whisper_mfa.wav"]
    return quiet + [(read_wav(p), p.stem) for p in whispers if p.is_file()]


def test_quiet_and_whispered_speech_in_a_long_silence_are_transcribed(engine, tmp_path):
    """Each quiet clip alone in 2 minutes of near-silence, after a normal sentence (as a person
    drops their voice): the text with the voice detector is the text without it, and not empty."""
    loud = espeak_clips()[1]
    for index, (clip, label) in enumerate(_quiet_speech()):
        inserts = [(5.0, read_wav(DATA_DIR / loud["file"])), (70.0, clip)]
        path = write_recording(tmp_path / f"quiet{index}.wav", 120, inserts)
        texts = []
        for detector in (SileroVadModel(), None):
            stream = open_file_stream(path)
            segments, _ = engine.transcribe(stream.chunks, GREEDY, duration_s=stream.duration_s, speech=detector)
            texts.append([(s.start, s.text) for s in segments])
        with_vad, without = texts
        assert [t for _, t in with_vad] == [t for _, t in without], label
        # where a window starts after the skipped silence may differ by a fraction of a second
        assert all(abs(a - b) < 1.0 for (a, _), (b, _) in zip(with_vad, without, strict=True)), label
        assert [t for start, t in with_vad if start >= 60], label  # the quiet clip was transcribed
        if label == espeak_clips()[0]["text"]:
            assert _found(label, [t for _, t in with_vad])


def test_batched_loses_no_words_against_sequential_on_a_long_recording(engine):
    """Four minutes of many utterances with short pauses: the words of `--batch-size 8` are the
    words of sequential decoding (counted as a multiset), give or take 1 %."""
    clips = [(read_wav(DATA_DIR / c["file"]), c["text"]) for c in espeak_clips()]
    audio, _ = utterances(clips, 240, seed=3)
    words = {}
    for batch in (1, 8):
        options = DecodeOptions(beam_size=1, batch_size=batch, condition_on_previous_text=False)
        segments, _ = engine.transcribe(audio, options, speech=SileroVadModel())
        words[batch] = Counter(normalize(" ".join(s.text for s in segments)).split())
    lost, extra = words[1] - words[8], words[8] - words[1]
    total = sum(words[1].values())
    assert sum(lost.values()) <= 0.01 * total, lost
    assert sum(extra.values()) <= 0.01 * total, extra

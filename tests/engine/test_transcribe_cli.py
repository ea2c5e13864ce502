"""`earshot transcribe` as a user runs it: a real process, real files, the real model."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from earshot_testing import DATA_DIR, REPO_ROOT, SHARED_SPEECH, espeak_clips, needs_shared, read_wav, write_wav

from app.engine.wer import normalize, word_error_rate

JFK = "And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country."


def earshot(*args: str, cwd: Path = REPO_ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app", *args], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, "PYTHONPATH": str(REPO_ROOT)}, timeout=600)


@needs_shared
def test_jfk_sentence_printed():
    result = earshot("transcribe", str(SHARED_SPEECH / "en_jfk_inaugural.flac"))
    assert result.returncode == 0, result.stderr
    assert normalize(result.stdout) == normalize(JFK)


def test_all_formats_written_with_the_json_schema(tmp_path):
    clip = espeak_clips()[0]
    result = earshot("transcribe", str(DATA_DIR / clip["file"]), "--format", "txt", "--format", "srt",
                     "--format", "vtt", "--format", "json", "--output-dir", str(tmp_path), "--beam-size", "1")
    assert result.returncode == 0, result.stderr
    stem = Path(clip["file"]).stem
    assert normalize((tmp_path / f"{stem}.txt").read_text()) == normalize(clip["text"])
    assert (tmp_path / f"{stem}.srt").read_text().startswith("1\n00:00:0")
    assert (tmp_path / f"{stem}.vtt").read_text().startswith("WEBVTT")
    doc = json.loads((tmp_path / f"{stem}.json").read_text())
    assert set(doc) >= {"file", "model", "precision", "language", "language_probability", "duration_s", "text",
                        "segments", "timings"}
    assert doc["model"] == "tiny.en" and doc["language"] == "en"
    assert set(doc["segments"][0]) >= {"id", "start", "end", "text", "tokens", "avg_logprob", "no_speech_prob",
                                       "temperature"}
    assert set(doc["timings"]) >= {"load_s", "decode_audio_s", "features_s", "encoder_s", "decoder_s", "total_s",
                                   "n_tokens"}
    assert doc["timings"]["n_tokens"] > 0 and 0 < doc["segments"][-1]["end"] <= doc["duration_s"] + 0.5


def _bad_inputs(folder: Path) -> dict[str, Path]:
    import av
    import numpy as np

    empty = folder / "empty.wav"
    empty.write_bytes(b"")
    noise = folder / "random.wav"
    noise.write_bytes(np.random.default_rng(0).bytes(4096))
    zero = folder / "zero.wav"
    import wave

    with wave.open(str(zero), "wb") as w:
        w.setnchannels(1), w.setsampwidth(2), w.setframerate(16000)
    mp3 = folder / "truncated.mp3"
    good = DATA_DIR / espeak_clips()[0]["file"]
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", str(good), str(folder / "full.mp3")], check=True)
    data = (folder / "full.mp3").read_bytes()
    mp3.write_bytes(data[:200])  # a header and no decodable audio
    video = folder / "silent_video.mp4"
    with av.open(str(video), "w") as out:
        stream = out.add_stream("mpeg4", rate=4)
        stream.width, stream.height, stream.pix_fmt = 32, 32, "yuv420p"
        for i in range(4):
            frame = av.VideoFrame.from_ndarray(np.zeros((32, 32, 3), np.uint8), format="rgb24")
            frame.pts = i
            out.mux(stream.encode(frame))
        out.mux(stream.encode(None))
    return {"empty": empty, "random": noise, "zero": zero, "mp3": mp3, "dir": folder, "video": video}


def test_bad_inputs_give_one_line_errors_and_the_good_file_is_still_transcribed(tmp_path):
    bad = _bad_inputs(tmp_path)
    clip = espeak_clips()[1]
    files = [str(p) for p in bad.values()] + [str(DATA_DIR / clip["file"]), str(tmp_path / "missing.wav")]
    result = earshot("transcribe", *files, "--beam-size", "1")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("earshot: error:")]
    assert len(errors) == len(bad) + 1, result.stderr
    for path in [*bad.values(), tmp_path / "missing.wav"]:
        assert any(path.name in line for line in errors), (path.name, errors)
    assert normalize(result.stdout) == normalize(clip["text"])


def test_missing_model_is_a_clear_error(tmp_path):
    result = earshot("transcribe", str(DATA_DIR / espeak_clips()[0]["file"]), "--model", str(tmp_path / "nope"))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "cannot load the model" in result.stderr and "nope" in result.stderr


@pytest.mark.parametrize("case", ["not_a_model", "truncated", "no_tokenizer", "bad_tokenizer"])
def test_broken_model_folders_are_clear_errors(tmp_path, bundled_model_dir, case):
    """One error line naming the folder the user gave (not the private folder it was copied to)."""
    folder = tmp_path / case
    folder.mkdir()
    if case == "not_a_model":
        (folder / "readme.txt").write_text("hello")
    else:
        for name in ("config.json", "tokenizer.json"):
            (folder / name).write_bytes((bundled_model_dir / name).read_bytes())
        data = (bundled_model_dir / "model.bin").read_bytes()
        (folder / "model.bin").write_bytes(data[: len(data) // 3] if case == "truncated" else data)
        if case == "no_tokenizer":
            (folder / "tokenizer.json").unlink()
        if case == "bad_tokenizer":
            (folder / "tokenizer.json").write_text('{"model": {"type": "WordPiece"}}')
    result = earshot("models", "import", str(folder), "--name", "x")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    expected = {"not_a_model": "not a Whisper model folder", "truncated": "truncated",
                "no_tokenizer": "no tokenizer.json", "bad_tokenizer": "not a Whisper tokenizer"}[case]
    errors = [line for line in result.stderr.splitlines() if line.startswith("earshot: error:")]
    assert len(errors) == 1 and expected in errors[0], result.stderr
    assert str(folder) in errors[0] and "/.x-" not in errors[0], errors[0]


def test_batch_size_transcribes_a_long_file_with_timed_segments(tmp_path):
    """`--batch-size 4` on a 70 s WAV (the espeak sentences twice): every sentence, SRT in order."""
    clips = espeak_clips()
    gap = np.zeros(12000, dtype=np.float32)
    audio = np.concatenate([p for _ in range(2) for c in clips for p in (read_wav(DATA_DIR / c["file"]), gap)])
    path = tmp_path / "long.wav"
    write_wav(path, audio)
    result = earshot("transcribe", str(path), "--batch-size", "4", "--format", "srt", "--output-dir", str(tmp_path))
    assert result.returncode == 0, result.stderr
    srt = (tmp_path / "long.srt").read_text(encoding="utf-8")
    text = " ".join(line for line in srt.splitlines() if line and not line[0].isdigit())
    reference = " ".join(c["text"] for _ in range(2) for c in clips)
    assert word_error_rate([reference], [text]) <= 10.0, text
    starts = [line.split(" --> ")[0] for line in srt.splitlines() if " --> " in line]
    assert len(starts) >= 2 * len(clips) - 2 and starts == sorted(starts)

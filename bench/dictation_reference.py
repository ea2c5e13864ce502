"""What the live dictation benchmark (dictation.py) holds Earshot's live text against, outside Earshot.

`reference_words` gives faster-whisper float32 beam 5 word timestamps on a session's audio: the
word end times per-word latency is measured from (cached by audio hash, in the temp dir).
`peer_row` replays the same session through ufal's whisper_streaming (whisper_streaming_peer.py:
LocalAgreement-2, faster-whisper int8 on the same model folder, min chunk 1.0 s; `--fast` makes it
computation-unaware) and scores its committed lines: per-word latency from each line's emission
time against those reference times, and the WER of the whole session's text.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import subprocess
import sys
import tempfile
import wave
from pathlib import Path

import dictation_sets as sets
import numpy as np
from dictation_metrics import pct, wer

from app.engine.wer import normalize

REPO = Path(__file__).resolve().parents[1]
RATE = 16000
CACHE = Path(tempfile.gettempdir()) / "earshot-bench-dictation"


def reference_words(audio: np.ndarray, model_dir: Path) -> list[tuple[str, float]]:
    """(word, end s) from faster-whisper float32 beam 5 word timestamps, cached by audio hash."""
    CACHE.mkdir(exist_ok=True)
    path = CACHE / f"ref-{hashlib.sha1(audio.tobytes()).hexdigest()[:16]}.json"
    if not path.exists():
        from faster_whisper import WhisperModel

        model = WhisperModel(str(model_dir), device="cpu", compute_type="float32", cpu_threads=2)
        segments, _ = model.transcribe(audio, language="en", beam_size=5, word_timestamps=True)
        path.write_text(json.dumps([(w.word, w.end) for s in segments for w in (s.words or [])]))
    return [(w, float(e)) for w, e in json.loads(path.read_text())]


def peer_row(label: str, played: list[sets.Utterance], pause_s: float, args: argparse.Namespace) -> dict[str, object]:
    """whisper_streaming on the same session: its committed lines, timed (see module docstring)."""
    audio, _ = sets.join(played, pause_s)
    CACHE.mkdir(exist_ok=True)
    wav_path = CACHE / f"session-{label.replace(' ', '-')}.wav"
    with wave.open(str(wav_path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(RATE)
        wav.writeframes(np.clip(audio * 32767, -32768, 32767).astype("<i2").tobytes())
    cmd = [sys.executable, str(REPO / "bench" / "whisper_streaming_peer.py"), str(wav_path),
           "--model_dir", str(args.model_dir), "--lan", "en", "--min-chunk-size", "1.0", "-l", "ERROR"]
    if args.fast:
        cmd.append("--comp_unaware")
    lines = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.splitlines()
    words: list[tuple[str, float]] = []  # (word, emission s)
    for line in lines:
        emit_ms, _, _, text = line.split(" ", 3)
        words += [(w, float(emit_ms) / 1000) for w in text.split()]
    ref = reference_words(audio, args.model_dir)
    hyp_n, ref_n = [normalize(w) for w, _ in words], [normalize(w) for w, _ in ref]
    blocks = difflib.SequenceMatcher(None, ref_n, hyp_n, autojunk=False).get_matching_blocks()
    lat = [words[b.b + k][1] - ref[b.a + k][1] for b in blocks for k in range(b.size)]
    refs = [u.reference for u in played]
    text = " ".join(w for w, _ in words)
    return {"set": label, "engine": "whisper_streaming", "word_p50_s": pct(lat, 50),
            "word_p95_s": pct(lat, 95), "matched": sum(b.size for b in blocks),
            "wer_live": wer([" ".join(refs)], [text]), "_live": text}

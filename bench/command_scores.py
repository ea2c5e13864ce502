"""Experiment: command phrases scored by the decoder against a short utterance's audio.

The alternative to matching the decoded text by sound (bench/commands.py): the utterance is
encoded once, and every command phrase is forced through the decoder ([sot, en, transcribe,
notimestamps] + " phrase", all phrases in one batch, in lower case and with a capital); the
phrase with the best log-probability per token is the candidate, taken when its score is above
a threshold. Printed: how often the best phrase is the one said, and recall against how many
short non-command utterances (`NEGATIVES`, espeak-ng too) pass, per threshold. The shared
recordings have no short utterances with their own audio, so the negatives are synthetic.

    python bench/command_scores.py [--voices en-us ...] [--speeds 150 ...]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from commands import SPEEDS, VOICES, command_set, speak  # noqa: E402
from earshot_bench_io import read_wav  # noqa: E402

from app.dictation.command_match import CommandPhrase  # noqa: E402


def phrase_logprobs(engine: Any, audio: np.ndarray, phrases: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """(summed log-probability, token count) of each phrase's tokens given `audio`."""
    from app.engine.decoding.logit_filters import log_softmax
    from app.engine.decoding.window_decoder import mel_window
    from app.engine.runtime.features import log_mel
    from app.engine.types import Task

    runtime, tok = engine.runtime, engine.tokenizer
    mel = log_mel(audio, runtime.facts.dims.n_mels)
    cross = runtime.encode(mel_window(mel, 0, min(mel.shape[-1], 3000)))
    rows = [tok.encode(" " + p) for p in phrases]  # the end of text may follow a mark
    width = max(len(r) for r in rows)
    prefix = np.array([[*tok.sot_sequence("en", Task.TRANSCRIBE), tok.no_timestamps]] * len(rows), dtype=np.int64)
    logits, cache = runtime.decode(prefix, runtime.new_cache(len(rows)), cross)
    total = np.zeros(len(rows))
    for step in range(width):
        scores = log_softmax(logits)
        targets = [r[step] if step < len(r) else tok.eot for r in rows]
        for i, (row, target) in enumerate(zip(rows, targets, strict=True)):
            if step < len(row):
                total[i] += scores[i, target]
        logits, cache = runtime.decode(np.array([[t] for t in targets], dtype=np.int64), cache, cross)
    return total, np.array([len(r) for r in rows])


NEGATIVES = ("thank you", "see you soon", "sounds good", "on my way", "call me later", "good morning",
             "yes please", "no thanks", "send it now", "keep going", "that is right", "let me think",
             "not today", "see you then", "happy birthday", "well done", "talk soon", "all good",
             "just a minute", "new idea")
"""Short utterances that are not commands: what a user says between pauses while dictating."""


def best_phrase(engine: Any, audio: np.ndarray, texts: list[str]) -> tuple[int, float]:
    """(index of the best-scoring phrase, its log-probability per token, the better of lower case
    and a capital first letter)."""
    lower, counts = phrase_logprobs(engine, audio, texts)
    upper, upper_counts = phrase_logprobs(engine, audio, [t[:1].upper() + t[1:] for t in texts])
    per_token = np.maximum(lower / counts, upper / upper_counts)
    best = int(np.argmax(per_token))
    return best, float(per_token[best])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--voices", nargs="+", default=list(VOICES))
    parser.add_argument("--speeds", nargs="+", type=int, default=list(SPEEDS))
    args = parser.parse_args()
    from app.engine.models.loader import load_engine
    from app.engine.types import Precision

    engine = load_engine(precision=Precision.FP32)
    said_phrases: list[tuple[CommandPhrase, str]] = command_set()
    texts = [said for _, said in said_phrases]
    positives: list[tuple[bool, float]] = []  # (best phrase is the one said, its score)
    negatives: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "c.wav"
        for utterance in [*texts, *NEGATIVES]:
            for voice in args.voices:
                for speed in args.speeds:
                    speak(utterance, voice, speed, wav)
                    best, score = best_phrase(engine, read_wav(wav), texts)
                    if utterance in texts:
                        positives.append((texts[best] == utterance, score))
                    else:
                        negatives.append(score)
    right = sum(ok for ok, _ in positives)
    print(f"the best phrase is the one said: {right}/{len(positives)} = {100 * right / len(positives):.1f} %")
    print("| log-prob per token at least | recall | non-commands taken for one |")
    print("|---|---|---|")
    for threshold in (-1.0, -1.5, -2.0, -2.5, -3.0, -3.5, -4.0):
        recall = sum(ok and score >= threshold for ok, score in positives)
        false = sum(score >= threshold for score in negatives)
        print(f"| {threshold} | {recall}/{len(positives)} = {100 * recall / len(positives):.1f} % |"
              f" {false}/{len(negatives)} |")


if __name__ == "__main__":
    main()

"""Spoken commands recognised by sound and by the decoder's score, as live dictation decides.

Each short utterance is decoded as live dictation decodes it (greedy, the precision asked for);
its text is matched by sound (`match_command`); when that finds no command and the text has at
most `CommandOptions.max_words` words, every fixed command phrase is scored by the decoder
against the utterance's audio (`WhisperEngine.score_phrases`) and the best one is taken when its
mean log-probability per token is at least the threshold. Printed per threshold:

- recall on the command set (bench/commands.py: every phrase in several espeak-ng voices and
  speeds; "cap", "all caps" and "literal" are matched by text only);
- false triggers on short utterances that are not commands: synthetic ones (`NEGATIVES`,
  espeak-ng) and real ones, every stretch of 1 to 4 words of the shared recordings that have a
  word alignment, cut from the recording at the aligned times (a stress far harsher than
  dictation, where most words run on without a pause).

    python bench/command_scores.py [--precision auto|fp32|int8] [--voices ...] [--speeds ...]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from commands import SHARED, SPEEDS, VOICES, command_set, recognised, speak  # noqa: E402
from earshot_bench_io import read_wav  # noqa: E402

from app.dictation.command_match import (  # noqa: E402
    SCORED_PHRASES,
    CommandOptions,
    CommandPhrase,
    match_command,
    normalised_words,
)

NEGATIVES = ("thank you", "see you soon", "sounds good", "on my way", "call me later", "good morning",
             "yes please", "no thanks", "send it now", "keep going", "that is right", "let me think",
             "not today", "see you then", "happy birthday", "well done", "talk soon", "all good",
             "just a minute", "new idea")
"""Short utterances that are not commands: what a user says between pauses while dictating."""

ALIGNED = (("speech", "en_mfa_acoustic_corpus"), ("robustness", "en_mfa_cold_corpus3"))
THRESHOLDS = (-1.5, -2.0, -2.5, -3.0, -3.5, -4.0)
SAMPLE_RATE = 16000
SAVED = ROOT / "bench" / "results" / "command-scores.json"
_MARGIN_S = 0.05


@dataclass(frozen=True)
class Heard:
    """One short utterance: what it is, what the decoder wrote, the best phrase and its score
    (None when the text alone decided or has too many words)."""

    said: str
    text: str
    by_text: bool
    best: str | None = None
    score: float = -np.inf
    scores: tuple[float, ...] = ()  # every scored phrase's, in SCORED_PHRASES order


def aligned_words(grid: Path) -> list[tuple[float, float, str]]:
    """(start s, end s, word) of the first tier of a Praat TextGrid (long text format)."""
    numbers = r"\s*([\d.]+)\s*\n\s*([\d.]+)\s*\n\s*\"([^\"]*)\""
    body = grid.read_text(encoding="utf-8").split('"IntervalTier"', 2)[1]
    return [(float(a), float(b), w) for a, b, w in re.findall(numbers, body) if w.strip()][1:]


def real_stretches() -> list[tuple[str, np.ndarray]]:
    """(words, audio) for every stretch of 1 to 4 aligned words of the aligned recordings."""
    out = []
    for folder, clip in ALIGNED:
        audio = read_wav(SHARED / folder / f"{clip}.wav")
        words = aligned_words(SHARED / folder / "alignments" / f"{clip}.TextGrid")
        for n in range(1, 5):
            for i in range(len(words) - n + 1):
                start = max(0, int((words[i][0] - _MARGIN_S) * SAMPLE_RATE))
                end = int((words[i + n - 1][1] + _MARGIN_S) * SAMPLE_RATE)
                out.append((" ".join(w for _, _, w in words[i:i + n]), audio[start:end]))
    return out


def hear(engine: Any, audio: np.ndarray, said: str, options: CommandOptions) -> Heard:
    """Decode `audio` as live dictation does and score the phrases where the text decides nothing."""
    from app.dictation.policy_options import streaming_decode_options

    text = engine.decode_window(audio, streaming_decode_options()).text.strip()
    if match_command(text, options) is not None:
        return Heard(said, text, True)
    if not 0 < len(normalised_words(text)) <= options.max_words:
        return Heard(said, text, False)
    scores = engine.score_phrases(audio, SCORED_PHRASES)
    best = int(np.argmax(scores))
    return Heard(said, text, False, SCORED_PHRASES[best], float(scores[best]), tuple(map(float, scores)))


def _taken_text(heard: Heard) -> str:
    return f"{heard.said!r} heard as {heard.text!r}"


def taken(heard: Heard, threshold: float) -> bool:
    return heard.by_text or (heard.best is not None and heard.score >= threshold)


def right(heard: Heard, phrase: CommandPhrase, threshold: float) -> bool:
    if heard.by_text:
        return recognised(phrase, heard.said, heard.text)
    return taken(heard, threshold) and heard.best == phrase.words


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--precision", default="auto")
    parser.add_argument("--voices", nargs="+", default=list(VOICES))
    parser.add_argument("--speeds", nargs="+", type=int, default=list(SPEEDS))
    args = parser.parse_args()
    from app.engine.models.loader import load_engine
    from app.engine.types import Precision

    engine = load_engine(precision=Precision(args.precision))
    options = CommandOptions()
    print(f"model {engine.name}, precision {engine.precision.value}")
    positives: list[tuple[CommandPhrase, Heard]] = []
    synthetic: list[Heard] = []
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "c.wav"
        for utterance in [*(said for _, said in command_set()), *NEGATIVES]:
            for voice in args.voices:
                for speed in args.speeds:
                    speak(utterance, voice, speed, wav)
                    heard = hear(engine, read_wav(wav), utterance, options)
                    phrase = dict((s, p) for p, s in command_set()).get(utterance)
                    if phrase is not None:
                        positives.append((phrase, heard))
                    else:
                        synthetic.append(heard)
    real = [hear(engine, audio, words, options) for words, audio in real_stretches()]
    SAVED.write_text(json.dumps({
        "precision": engine.precision.value, "phrases": SCORED_PHRASES,
        "silence": engine.score_phrases(np.zeros(SAMPLE_RATE, dtype=np.float32), SCORED_PHRASES),
        "positives": [{"phrase": p.words, **dataclasses.asdict(h)} for p, h in positives],
        "synthetic": [dataclasses.asdict(h) for h in synthetic],
        "real": [dataclasses.asdict(h) for h in real]}, indent=0) + "\n", encoding="utf-8")
    report(positives, synthetic, real)


def report(positives: list[tuple[CommandPhrase, Heard]], synthetic: list[Heard], real: list[Heard]) -> None:
    by_text = sum(right(h, p, 0.0) for p, h in positives if h.by_text)
    print(f"commands recognised by text alone: {by_text}/{len(positives)}")
    print("| score at least | command recall | synthetic non-commands taken | real 1-4 word stretches taken |")
    print("|---|---|---|---|")
    for threshold in THRESHOLDS:
        recall = sum(right(h, p, threshold) for p, h in positives)
        fake = sum(taken(h, threshold) for h in synthetic)
        true = sum(taken(h, threshold) for h in real)
        print(f"| {threshold} | {recall}/{len(positives)} = {100 * recall / len(positives):.1f} % |"
              f" {fake}/{len(synthetic)} | {true}/{len(real)} |")
    print("\nsynthetic non-commands taken by their text:", ", ".join(_taken_text(h) for h in synthetic if h.by_text))
    print("\nmissed (score -3.0):")
    for phrase, heard in positives:
        if not right(heard, phrase, -3.0):
            print(f"  {heard.said!r}: heard {heard.text!r}, best {heard.best!r} {heard.score:.2f}")
    print("\nreal stretches taken (score -4.0):")
    for heard in real:
        if taken(heard, -4.0):
            print(f"  {heard.said!r}: heard {heard.text!r}, by text {heard.by_text},"
                  f" best {heard.best!r} {heard.score:.2f}")


if __name__ == "__main__":
    main()

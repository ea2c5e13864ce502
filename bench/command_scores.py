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
    python bench/command_scores.py --saved   # the tables again from bench/results/command-scores.json
    python bench/command_scores.py --calibrate   # each phrase's best score on the non-commands
    python bench/command_scores.py --model base --calibrate --ordinary base.json   # another model: its own table
    python bench/command_scores.py --model base --ordinary base.json   # ... and its recall with that table

`--calibrate` scores every fixed phrase against the synthetic non-commands (`NEGATIVES`) and
prints the best score of each: `ORDINARY_BEST` in app/dictation/command_calibration.py.
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

from commands import SHARED, SPEEDS, VOICES, command_set, speak  # noqa: E402
from earshot_bench_io import read_wav  # noqa: E402

from app.dictation.command_heard import CommandListener, completes_a_word, decide, preferred  # noqa: E402
from app.dictation.command_match import (  # noqa: E402
    CommandMatch,
    CommandOptions,
    CommandPhrase,
    match_command,
    normalised_words,
)
from app.dictation.events import HeardPhrase  # noqa: E402

NEGATIVES = ("thank you", "see you soon", "sounds good", "on my way", "call me later", "good morning",
             "yes please", "no thanks", "send it now", "keep going", "that is right", "let me think",
             "not today", "see you then", "happy birthday", "well done", "talk soon", "all good",
             "just a minute", "new idea", "cab driver", "captain cook", "cup of tea", "all capital assets",
             "calm down", "literally nothing", "a little comet", "later on")
"""Short utterances that are not commands: what a user says between pauses while dictating
("cab driver" to "calm down" start with a sound like "cap" or "all caps"; the last three with
one like "literal")."""

ALIGNED = (("speech", "en_mfa_acoustic_corpus"), ("robustness", "en_mfa_cold_corpus3"))
THRESHOLDS = (-2.5, -3.0, -3.5, -4.0)
CONFIRMS = (-4.0, -5.0, -6.0, -99.0)
PREFIX_THRESHOLDS = (-2.0, -2.5, -3.0, -3.5, -4.0, -4.5)
SAMPLE_RATE = 16000
SAVED = ROOT / "bench" / "results" / "command-scores.json"
_MARGIN_S = 0.05


@dataclass(frozen=True)
class Heard:
    """One short utterance: what was said, what the decoder wrote, the command its text matches
    (by sound) and the decoder's best phrase with its score (None where the text decides alone)."""

    said: str
    text: str
    found: str | None
    heard: str | None = None
    score: float = -np.inf
    prefix: str | None = None
    prefix_score: float = -np.inf
    argument: str = ""
    text_score: float | None = None

    def command(self, options: CommandOptions) -> CommandMatch | None:
        """What the gate takes the utterance for under `options` (thresholds)."""
        found = match_command(self.text, options)
        if self.heard is None:
            return decide(found, None, options)
        prefix = None  # the listener's rules, replayed on what it saved
        if self.prefix is not None and not completes_a_word(self.prefix, self.argument, normalised_words(self.text)):
            prefix = HeardPhrase(self.prefix, self.prefix_score, self.argument)
        alone = HeardPhrase(self.heard, self.score, text_phrase_score=self.text_score)
        return decide(found, preferred(alone, prefix, options), options)


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
    """Decode `audio` as live dictation does; the decoder's best phrases as the worker scores
    them (a phrase that takes words down to the lowest threshold of `PREFIX_THRESHOLDS`)."""
    from app.dictation.policy_options import streaming_decode_options

    text = engine.decode_window(audio, streaming_decode_options()).text.strip()
    found = match_command(text, options)
    listening = dataclasses.replace(options, min_prefix_score=min(PREFIX_THRESHOLDS))
    scored = CommandListener(engine, listening).scored(text, lambda: audio, len(audio) / SAMPLE_RATE)
    heard = Heard(said, text, None if found is None else found.phrase.words)
    if scored is None:
        return heard
    alone, prefix = scored
    heard = dataclasses.replace(heard, heard=alone.words, score=alone.score, text_score=alone.text_phrase_score)
    if prefix is None:
        return heard
    return dataclasses.replace(heard, prefix=prefix.words, prefix_score=prefix.score, argument=prefix.argument)


def right(heard: Heard, phrase: CommandPhrase, options: CommandOptions) -> bool:
    """The command said is the one taken (its mark, its words)."""
    found = heard.command(options)
    if found is None or found.kind is not phrase.kind:
        return False
    if phrase.punctuation is not None:
        return found.phrase.punctuation is not None and found.phrase.punctuation.text == phrase.punctuation.text
    if phrase.takes_words:  # the words it applies to, as the gate will write them
        return normalised_words(found.argument) == heard.said.split()[len(phrase.words.split()):]
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--precision", default="auto")
    parser.add_argument("--voices", nargs="+", default=list(VOICES))
    parser.add_argument("--speeds", nargs="+", type=int, default=list(SPEEDS))
    parser.add_argument("--calibrate", action="store_true",
                        help="print each scored phrase's best score on the synthetic non-commands")
    parser.add_argument("--saved", action="store_true",
                        help=f"report again on what the last run saved ({SAVED.name}), without the model")
    parser.add_argument("--model", help="installed model name (default: the bundled tiny.en)")
    parser.add_argument("--ordinary", type=Path,
                        help="JSON of each phrase's best score on ordinary speech: written by --calibrate, "
                             "else used instead of the app's table (tiny.en's)")
    args = parser.parse_args()
    if args.ordinary is not None and not args.calibrate:
        from app.dictation import command_calibration

        command_calibration.ORDINARY_BEST = json.loads(args.ordinary.read_text(encoding="utf-8"))
    saved = SAVED if args.model is None else SAVED.with_name(f"command-scores-{args.model}.json")
    if args.saved:
        report(*saved_run(saved))
        return
    from app.engine.models.loader import load_engine
    from app.engine.types import Precision

    engine = load_engine(args.model, precision=Precision(args.precision))
    options = CommandOptions()
    print(f"model {engine.name}, precision {engine.precision.value}")
    if args.calibrate:
        calibrate(engine, args.voices, args.speeds, options, args.ordinary)
        return
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
    saved.write_text(json.dumps({
        "precision": engine.precision.value,
        "positives": [{"phrase": p.words, **dataclasses.asdict(h)} for p, h in positives],
        "synthetic": [dataclasses.asdict(h) for h in synthetic],
        "real": [dataclasses.asdict(h) for h in real]}, indent=0) + "\n", encoding="utf-8")
    report(positives, synthetic, real)


def calibrate(engine: Any, voices: list[str], speeds: list[int], options: CommandOptions, out: Path | None) -> None:
    """Print the best score of every scored phrase over `NEGATIVES` in `voices` x `speeds`, for
    the utterances the listener scores (at most `max_words` + 1 words written); also as JSON to
    `out` where given."""
    from app.dictation.command_match import SCORED_PHRASES
    from app.dictation.policy_options import streaming_decode_options

    best = np.full(len(SCORED_PHRASES), -np.inf)
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "c.wav"
        for utterance in NEGATIVES:
            for voice in voices:
                for speed in speeds:
                    speak(utterance, voice, speed, wav)
                    audio = read_wav(wav)
                    text = engine.decode_window(audio, streaming_decode_options()).text
                    if 0 < len(normalised_words(text)) <= options.max_words + 1:
                        best = np.maximum(best, [f.mean for f in engine.score_phrases(audio, SCORED_PHRASES)])
    if out is not None:
        out.write_text(json.dumps(dict(zip(SCORED_PHRASES, map(float, best), strict=True)), indent=0), encoding="utf-8")
    print("ORDINARY_BEST = {")
    for phrase, score in zip(SCORED_PHRASES, best, strict=True):
        print(f"    {phrase!r}: {score:.2f},")
    print("}")


def saved_run(path: Path = SAVED) -> tuple[list[tuple[CommandPhrase, Heard]], list[Heard], list[Heard]]:
    """The utterances of the last run, as saved in `path`."""
    saved = json.loads(path.read_text(encoding="utf-8"))
    phrases = {said: phrase for phrase, said in command_set()}

    def heard(row: dict[str, Any]) -> Heard:
        return Heard(row["said"], row["text"], row["found"], row["heard"], row["score"],
                     row.get("prefix"), row.get("prefix_score", -np.inf), row.get("argument", ""),
                     row.get("text_score"))

    return ([(phrases[row["said"]], heard(row)) for row in saved["positives"]],
            [heard(row) for row in saved["synthetic"]], [heard(row) for row in saved["real"]])


def report(positives: list[tuple[CommandPhrase, Heard]], synthetic: list[Heard], real: list[Heard]) -> None:
    text_only = [right(h, p, CommandOptions()) for p, h in positives if h.heard is None]
    print(f"commands decided by their text alone: {len(text_only)}/{len(positives)}, right {sum(text_only)}")
    print("| taken at (score) | confirmed at | command recall | synthetic non-commands taken | real stretches taken |")
    print("|---|---|---|---|---|")
    for take in THRESHOLDS:
        for confirm in CONFIRMS:
            options = CommandOptions(min_phrase_score=take, min_confirm_score=min(confirm, take), min_prefix_score=0.0)
            print(f"| {take} | {min(confirm, take)} | {_cells(options, positives, synthetic, real)}")
    print("\n| \"cap\", \"all caps\", \"literal <phrase>\" heard at the start at (score) | command recall |"
          " synthetic non-commands taken | real stretches taken |")
    print("|---|---|---|---|")
    for take in PREFIX_THRESHOLDS:
        print(f"| {take} | {_cells(CommandOptions(min_prefix_score=take), positives, synthetic, real)}")
    print("\n| each phrase taken at (margin above its best on ordinary speech, lowest) | command recall |"
          " synthetic non-commands taken | real stretches taken |")
    print("|---|---|---|---|")
    for margin, lowest in ((0.0, -3.5), (1.0, -5.0), (1.5, -4.5), (1.5, -5.0), (1.5, -5.5), (2.0, -5.0)):
        options = CommandOptions(phrase_margin=margin, lowest_phrase_score=lowest)
        name = "one threshold for all (-3.5)" if lowest == -3.5 else f"{margin}, {lowest}"
        print(f"| {name} | {_cells(options, positives, synthetic, real)}")
    options = CommandOptions()
    print(f"\nmissed (default: taken at {options.min_phrase_score}, confirmed at {options.min_confirm_score}):")
    for phrase, heard in positives:
        if not right(heard, phrase, options):
            print(f"  {_line(heard)}")
    print("\nnon-commands taken (default):")
    for heard in [*synthetic, *real]:
        if heard.command(options) is not None:
            print(f"  {_line(heard)}")


def _cells(options: CommandOptions, positives: list[tuple[CommandPhrase, Heard]], synthetic: list[Heard],
           real: list[Heard]) -> str:
    """A table row's recall, synthetic and real columns under `options` (the row's end)."""
    recall = sum(right(h, p, options) for p, h in positives)
    fake = sum(h.command(options) is not None for h in synthetic)
    true = sum(h.command(options) is not None for h in real)
    share = 100 * recall / len(positives)
    return f"{recall}/{len(positives)} = {share:.1f} % | {fake}/{len(synthetic)} | {true}/{len(real)} |"


def _line(heard: Heard) -> str:
    start = "" if heard.prefix is None else f", start {heard.prefix!r} {heard.prefix_score:.2f} + {heard.argument!r}"
    return (f"{heard.said!r}: heard {heard.text!r}, text {heard.found!r}, decoder {heard.heard!r} {heard.score:.2f}"
            + start)


if __name__ == "__main__":
    main()

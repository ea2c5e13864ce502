"""The user's vocabulary: recall of listed words with no help, with the prompt alone, with the
decoder's boost, and with both; WER on the rest, and listed words written where none was said.

    python bench/vocabulary.py [--boosts 2 4] [--beam 5] [--sets names speech speech2 robustness]

Sets (each reported on its own):
- `names` / `names-held`: espeak-ng sentences with rare names and terms (two voices, made at run
  time, nothing written to the repository); strengths are compared on `names`, and `names-held`
  (other sentences, other words) shows whether the choice holds.
- `speech`, `speech2`, `robustness`: the English recordings of ../shared/data. Their listed words
  are the rare words of their references (words Whisper's tokenizer splits into 3 or more
  pieces, as names and terms are) and, as words a user lists but does not say here, every name
  of the espeak-ng sets: one list per set, as a user keeps one list for everything.

Every configuration decodes every clip with the set's whole list active, so a listed word
written into a clip that does not say it counts as an insertion.
"""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from earshot_bench_io import read_wav  # noqa: E402

SHARED = REPO.parent / "shared" / "data"

NAMES = (  # (sentence, its listed words): tuning half
    ("Please send the quarterly report to Siobhan Okonkwo before Thursday.", ("Siobhan", "Okonkwo")),
    ("We deployed the service on Kubernetes with Terraform last night.", ("Kubernetes", "Terraform")),
    ("The meeting with Doctor Nakamura moved to the Reykjavik office.", ("Nakamura", "Reykjavik")),
    ("Our new intern Przemyslaw starts on Monday.", ("Przemyslaw",)),
    ("Add a note that the Zyrtec order ships from Tegucigalpa.", ("Zyrtec", "Tegucigalpa")),
    ("The invoice from Schwarzkopf arrived after the deadline.", ("Schwarzkopf",)),
    ("Ask Anneliese whether the Grafana dashboard is ready.", ("Anneliese", "Grafana")),
    ("The patient was given ibuprofen and metoclopramide.", ("ibuprofen", "metoclopramide")),
    ("Call Xiaoming about the Shenzhen supplier on Friday.", ("Xiaoming", "Shenzhen")),
    ("The lawyer from Vanderbilt and Okafor sent the contract.", ("Vanderbilt", "Okafor")),
)
NAMES_HELD = (  # (sentence, its listed words): never used to choose a strength
    ("Tell Padraig that the Postgres migration failed again.", ("Padraig", "Postgres")),
    ("The flight to Ouagadougou leaves at seven in the morning.", ("Ouagadougou",)),
    ("Rheinmetall signed the agreement with Ngozi yesterday.", ("Rheinmetall", "Ngozi")),
    ("We need another license for Photoshop and Figma.", ("Photoshop", "Figma")),
    ("Professor Wojciechowski will review the thesis.", ("Wojciechowski",)),
    ("The dose of amoxicillin was doubled on Tuesday.", ("amoxicillin",)),
    ("Send the slides to Ilse and Bartholomew before lunch.", ("Ilse", "Bartholomew")),
    ("The Nginx logs show errors from Cloudflare.", ("Nginx", "Cloudflare")),
    ("Our office in Szczecin is closed next week.", ("Szczecin",)),
    ("Mrs Featherstonehaugh asked for the Quickbooks export.", ("Featherstonehaugh", "Quickbooks")),
)
VOICES = ("en-us", "en-gb")


@dataclass(frozen=True)
class Clip:
    """`audio` [n] float32 16 kHz; `reference` its text."""

    name: str
    audio: np.ndarray
    reference: str


@dataclass(frozen=True)
class ClipSet:
    name: str
    clips: list[Clip]
    words: tuple[str, ...]


def espeak_set(name: str, sentences: Sequence[tuple[str, tuple[str, ...]]], folder: Path) -> ClipSet:
    clips = []
    for i, (text, _) in enumerate(sentences):
        voice = VOICES[i % len(VOICES)]
        wav = folder / f"{name}-{i}.wav"
        subprocess.run(["espeak-ng", "-v", voice, "-s", "150", "-w", str(wav), text], check=True)
        clips.append(Clip(f"{name}-{i}", _at_16k(wav), text))
    words = tuple(w for _, listed in sentences for w in listed)
    return ClipSet(name, clips, words)


def _at_16k(wav: Path) -> np.ndarray:
    resampled = wav.with_suffix(".16k.wav")
    subprocess.run(["sox", str(wav), "-r", "16000", "-c", "1", "-b", "16", str(resampled)], check=True)
    return read_wav(resampled)


def shared_set(name: str, folder: Path, tokenizer: object) -> ClipSet:
    with (folder / "manifest.csv").open(encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader(handle) if r["language"] == "en" and r["reference_text"].strip()]
    clips = [Clip(r["clip_id"], read_wav(folder / f"{r['clip_id']}.wav"), r["reference_text"]) for r in rows]
    distractors = tuple(w for _, listed in (*NAMES, *NAMES_HELD) for w in listed)
    return ClipSet(name, clips, rare_words([c.reference for c in clips], tokenizer) + distractors)


def rare_words(references: Sequence[str], tokenizer: object) -> tuple[str, ...]:
    """The words of `references` that the tokenizer splits into 3 or more pieces (lower case)."""
    from app.engine.wer import normalize

    found: dict[str, None] = {}
    for text in references:
        for word in normalize(text).split():
            if word.isalpha() and len(tokenizer.encode(" " + word)) >= 3:  # type: ignore[attr-defined]
                found[word] = None
    return tuple(found)


def counts(text: str, words: Sequence[str]) -> Counter[str]:
    from app.engine.wer import normalize

    listed = {normalize(w) for w in words}
    return Counter(w for w in normalize(text).split() if w in listed)


@dataclass
class Score:
    said: int = 0
    found: int = 0
    inserted: int = 0
    errors_rest: float = 0.0
    words_rest: int = 0
    errors_all: float = 0.0
    words_all: int = 0

    def line(self, label: str) -> str:
        recall = self.found / self.said if self.said else float("nan")
        return (f"{label:<18} recall {recall:6.1%} ({self.found}/{self.said})  inserted {self.inserted:3d}  "
                f"WER {self.errors_all / self.words_all:6.2%}  WER rest {self.errors_rest / self.words_rest:6.2%}")


def score(clip_set: ClipSet, hypotheses: Sequence[str]) -> Score:
    from app.engine.wer import edit_distance, normalize

    result = Score()
    listed = {normalize(w) for w in clip_set.words}
    for clip, hyp in zip(clip_set.clips, hypotheses, strict=True):
        said, written = counts(clip.reference, clip_set.words), counts(hyp, clip_set.words)
        result.said += sum(said.values())
        result.found += sum(min(n, written[w]) for w, n in said.items())
        result.inserted += sum(max(0, n - said[w]) for w, n in written.items())
        ref, out = normalize(clip.reference).split(), normalize(hyp).split()
        result.errors_all += edit_distance(ref, out)
        result.words_all += len(ref)
        ref_rest, out_rest = [w for w in ref if w not in listed], [w for w in out if w not in listed]
        result.errors_rest += edit_distance(ref_rest, out_rest)
        result.words_rest += len(ref_rest)
    return result


def transcribe_all(engine: object, clip_set: ClipSet, options: object) -> list[str]:
    texts = []
    for clip in clip_set.clips:
        segments, _ = engine.transcribe(clip.audio, options)  # type: ignore[attr-defined]
        texts.append(" ".join(s.text.strip() for s in segments))
    return texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boosts", type=float, nargs="+", default=[2.0, 4.0])
    parser.add_argument("--beam", type=int, default=5)
    parser.add_argument("--sets", nargs="+", default=["names", "names-held", "speech", "speech2", "robustness"])
    parser.add_argument("--show", action="store_true", help="print each clip's text per configuration")
    parser.add_argument("--boost-only", action="store_true", help="skip the prompt configurations")
    args = parser.parse_args()

    from app.engine.models.loader import load_engine
    from app.engine.types import DecodeOptions, Precision

    engine = load_engine(precision=Precision.FP32)
    base = DecodeOptions(beam_size=args.beam)
    with tempfile.TemporaryDirectory() as tmp:
        builders = {
            "names": lambda: espeak_set("names", NAMES, Path(tmp)),
            "names-held": lambda: espeak_set("names-held", NAMES_HELD, Path(tmp)),
            "speech": lambda: shared_set("speech", SHARED / "speech", engine.tokenizer),
            "speech2": lambda: shared_set("speech2", SHARED / "speech2", engine.tokenizer),
            "robustness": lambda: shared_set("robustness", SHARED / "robustness", engine.tokenizer),
        }
        for name in args.sets:
            clip_set = builders[name]()
            print(f"\n## {name}: {len(clip_set.clips)} clips, {len(clip_set.words)} listed words", flush=True)
            prompt = ", ".join(clip_set.words)
            configs = [("none", base)] + ([] if args.boost_only else [("prompt", replace(base, initial_prompt=prompt))])
            for boost in args.boosts:
                boosted = replace(base, vocabulary=clip_set.words, vocabulary_boost=boost)
                configs.append((f"boost {boost:g}", boosted))
                if not args.boost_only:
                    configs.append((f"boost {boost:g}+prompt", replace(boosted, initial_prompt=prompt)))
            for label, options in configs:
                hypotheses = transcribe_all(engine, clip_set, options)
                print(score(clip_set, hypotheses).line(label), flush=True)
                if args.show:
                    for clip, text in zip(clip_set.clips, hypotheses, strict=True):
                        print(f"    {clip.name}: {text}")


if __name__ == "__main__":
    main()

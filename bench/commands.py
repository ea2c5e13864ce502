"""Spoken editing commands: recall on espeak-ng command utterances, false triggers on real speech.

Recall: every command phrase (and "cap"/"all caps"/"literal" with a word after it) is spoken by
espeak-ng in several voices and speeds, transcribed by the bundled tiny.en (greedy, as live
dictation decodes), and the text is given to the command matcher as a whole utterance. A
command counts as recognised when the matcher returns its kind (and, for punctuation, its mark;
for "cap", its word). "exact" is the old rule for comparison: the text, normalised, is the
phrase itself.

False triggers: the English reference texts of ../shared/data/speech, speech2 and robustness
(none has commands in it) and tiny.en's transcripts of the same recordings, split into
utterances at sentence ends; every utterance the matcher takes for a command is a false
trigger, counted per 1,000 words.

    python bench/commands.py [--voices en-us en-gb ...] [--speeds 130 150 175] [--no-transcripts]
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from earshot_bench_io import read_wav  # noqa: E402

from app.dictation.command_match import (  # noqa: E402
    PHRASES,
    CommandKind,
    CommandPhrase,
    match_command,
    normalised_words,
)

SHARED = ROOT.parent / "shared" / "data"
FOLDERS = ("speech", "speech2", "robustness")
VOICES = ("en-us", "en-gb", "en-gb-x-rp", "en-us+f3")
SPEEDS = (130, 150, 175)
ARGUMENTS = {CommandKind.CAP: "london", CommandKind.ALL_CAPS: "nasa"}
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_CLAUSE = re.compile(r"(?<=[.!?,;:])\s+")  # shorter utterances: a harder test
HEARD = ROOT / "bench" / "results" / "commands-heard.json"


def command_set() -> list[tuple[CommandPhrase, str]]:
    """(phrase, what is said) for each phrase; spellings that sound the same are said once."""
    said: dict[str, CommandPhrase] = {}
    for phrase in PHRASES:
        words = phrase.words + (" " + ARGUMENTS[phrase.kind] if phrase.kind in ARGUMENTS else "")
        if phrase.words not in ("fullstop", "newline", "semi colon"):  # the same sound as another
            said.setdefault(words, phrase)
    said["literal comma"] = CommandPhrase("literal", CommandKind.LITERAL, takes_words=True)
    return [(p, w) for w, p in said.items()]


def speak(text: str, voice: str, speed: int, out: Path) -> None:
    """espeak-ng -> 16 kHz mono 16-bit WAV (sox)."""
    raw = out.with_suffix(".raw.wav")
    subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-w", str(raw), text], check=True)
    subprocess.run(["sox", "-D", str(raw), "-r", "16000", "-c", "1", "-b", "16", str(out)], check=True)
    raw.unlink()


def recognised(phrase: CommandPhrase, said: str, heard: str) -> bool:
    found = match_command(heard)
    if found is None or found.kind is not phrase.kind:
        return False
    if phrase.punctuation is not None:
        return found.phrase.punctuation is not None and found.phrase.punctuation.text == phrase.punctuation.text
    if phrase.takes_words:
        return normalised_words(found.argument) == said.split()[len(phrase.words.split()):]
    return True


def transcribe_commands(engine: Any, voices: tuple[str, ...], speeds: tuple[int, ...]) -> list[dict[str, Any]]:
    """What tiny.en writes for each command in each voice and speed ({said, voice, speed, heard})."""
    from app.engine.types import DecodeOptions

    heard = []
    with tempfile.TemporaryDirectory() as tmp:
        for _, said in command_set():
            for voice in voices:
                for speed in speeds:
                    wav = Path(tmp) / "command.wav"
                    speak(said, voice, speed, wav)
                    segments, _ = engine.transcribe(read_wav(wav), DecodeOptions(beam_size=1))
                    text = " ".join(s.text.strip() for s in segments)
                    heard.append({"said": said, "voice": voice, "speed": speed, "heard": text})
    return heard


def score(heard: list[dict[str, Any]]) -> list[tuple[str, str, bool, bool]]:
    """(said, heard, recognised by sound, heard exactly) for each transcribed command."""
    phrases = {said: phrase for phrase, said in command_set()}
    return [(h["said"], h["heard"], recognised(phrases[h["said"]], h["said"], h["heard"]),
             normalised_words(h["heard"]) == h["said"].split()) for h in heard]


def english_clips() -> list[tuple[str, Path, str]]:
    """(folder/clip, wav, reference) for every English clip of the shared folders."""
    clips = []
    for folder in FOLDERS:
        with (SHARED / folder / "manifest.csv").open(encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                wav = SHARED / folder / row["file"]
                if row["language"] == "en" and row["reference_text"].strip() and wav.suffix == ".wav":
                    clips.append((f"{folder}/{row['clip_id']}", wav, row["reference_text"]))
    return clips


def false_triggers(texts: list[str], splitter: re.Pattern[str] | None) -> tuple[int, int, int, list[str]]:
    """(utterances, words, triggers, the utterances that triggered) over `texts` split by
    `splitter`; None: every stretch of 1 to 4 words is taken as an utterance (a stress test far
    harsher than speech, where most stretches run on without a pause)."""
    if splitter is None:
        words = [w for t in texts for w in t.split()]
        utterances = [" ".join(words[i:i + n]) for n in range(1, 5) for i in range(len(words) - n + 1)]
        hits = [u for u in utterances if match_command(u) is not None]
        return len(utterances), len(words), len(hits), hits
    utterances = [u for t in texts for u in splitter.split(t.strip()) if u.strip()]
    hits = [u for u in utterances if match_command(u) is not None]
    return len(utterances), sum(len(u.split()) for u in utterances), len(hits), hits


def per_voice(rows: list[tuple[str, str, bool, bool]], heard: list[dict[str, Any]]) -> str:
    """"voice speed: recognised %" for each voice and speed, in the order of `heard`."""
    totals: dict[str, list[int]] = {}
    for row, item in zip(rows, heard, strict=True):
        counts = totals.setdefault(f"{item['voice']} {item['speed']}", [0, 0])
        counts[0] += row[2]
        counts[1] += 1
    return ", ".join(f"{key}: {100 * ok / total:.0f} %" for key, (ok, total) in totals.items())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--voices", nargs="+", default=list(VOICES))
    parser.add_argument("--speeds", nargs="+", type=int, default=list(SPEEDS))
    parser.add_argument("--no-transcripts", action="store_true", help="false triggers on references only")
    parser.add_argument("--heard", type=Path,
                        help=f"score the texts saved in this file (default: transcribe, save to {HEARD.name})")
    args = parser.parse_args()
    from app.engine.models.loader import load_engine
    from app.engine.types import DecodeOptions, Precision

    if args.heard:
        saved = json.loads(args.heard.read_text(encoding="utf-8"))
        heard, transcripts = saved["commands"], saved["transcripts"]
    else:
        engine = load_engine(precision=Precision.FP32)
        heard = transcribe_commands(engine, tuple(args.voices), tuple(args.speeds))
        transcripts = [] if args.no_transcripts else [
            " ".join(s.text.strip() for s in engine.transcribe(read_wav(wav), DecodeOptions(beam_size=1))[0])
            for _, wav, _ in english_clips()]
        HEARD.write_text(json.dumps({"commands": heard, "transcripts": transcripts}, indent=1) + "\n", encoding="utf-8")
    print_recall(heard)
    print_false_triggers(transcripts)


def print_recall(heard: list[dict[str, Any]]) -> None:
    """The recall table: per command, then in all, for the editing commands, per voice and speed."""
    rows = score(heard)
    voices = sorted({(h["voice"], h["speed"]) for h in heard})
    by_said: Counter[str] = Counter(s for s, _, ok, _ in rows if ok)
    print(f"| command | recognised / {len(voices)} | heard as (misses) |")
    print("|---|---|---|")
    for _, said in command_set():
        misses = sorted({h for s, h, ok, _ in rows if s == said and not ok})
        print(f"| {said} | {by_said[said]} | {'; '.join(repr(m) for m in misses)} |")
    total, ok, exact = len(rows), sum(r[2] for r in rows), sum(r[3] for r in rows)
    print(f"\nrecall by sound: {ok}/{total} = {100 * ok / total:.1f} %;"
          f" heard exactly (old rule): {exact}/{total} = {100 * exact / total:.1f} %")
    taking_back = [r for r in rows if r[0] in ("scratch that", "undo that", "delete last word")]
    print(f"scratch that / undo that / delete last word: {sum(r[2] for r in taking_back)}/{len(taking_back)}")
    print(f"per voice and speed: {per_voice(rows, heard)}")


def print_false_triggers(transcripts: list[str]) -> None:
    """The false-trigger table over the shared recordings' references (and tiny.en's transcripts)."""
    clips = english_clips()
    references = [ref for _, _, ref in clips]
    sets: dict[str, tuple[list[str], re.Pattern[str] | None]] = {
        "references, split at sentence ends": (references, _SENTENCE),
        "references, split at , ; : too": (references, _CLAUSE),
    }
    if transcripts:
        sets["tiny.en transcripts, split at sentence ends"] = (transcripts, _SENTENCE)
    sets["stress: every 1-4 word stretch of the references"] = (references, None)
    print(f"\n| text ({len(clips)} English clips) | utterances | words | false triggers | per 1,000 words |")
    print("|---|---|---|---|---|")
    for name, (texts, splitter) in sets.items():
        count, words, hits, which = false_triggers(texts, splitter)
        print(f"| {name} | {count} | {words} | {hits} | {1000 * hits / max(1, words):.2f} |")
        if splitter is not None:
            for hit in which:
                print(f"|   triggered by: {hit!r} | | | | |")

if __name__ == "__main__":
    main()

"""Live dictation benchmark: shared recordings through the live path, per set, next to offline.

    python bench/dictation.py [--models tiny.en] [--sets pauses continuous classes nonspeech]
                              [--gaps pauses continuous] [--fast] [--peer] [--minutes 0]

Sets (bench/dictation_sets.py): `pauses` the English shared clips joined with 1.5 s of silence;
`continuous` the same with 0.35 s (words must be committed while the speaker goes on); `speech2`
the English clips of ../shared/data/speech2 and `robustness` every condition class's utterances
one after another, each as a session with 1.5 s pauses and as a continuous one (`--gaps`); `classes`
each robustness class (whispered, hoarse, reverb, noise 10/5/0 dB) alone and inside a session
(after three clean clips); `nonspeech` silence, room noise, music, the five noise recordings and
a cough, alone and after the lead (words committed, which should be none). Each session is
replayed through the same ring, worker, VAD and policy as the microphone, at 1x, or with
`--fast` as fast as decoding allows (then latencies are the policy's own, in stream time,
without compute: noise-free on a shared machine).

Per row: per-word latency p50/p95 (s; committed words matched by difflib to faster-whisper
float32 beam 5 word timestamps on the session audio), end-of-utterance commit p50/p95 (s), first
tentative (ms), compute ratio, overflows, WER live and offline (each clip transcribed whole,
greedy, with the files' temperature fallback; normalised; the live text is split into utterances
by its minimal-edit alignment to the references, not by estimated word times), `cased` = WER
of live against offline text with case and punctuation kept (split on spaces) minus the same
normalised (the formatting errors alone),
`cased_added` the part of `cased` where live only adds a mark or a capital to a bare offline word,
utterances dropped (offline wrote words, live none), `wer_joined` the live WER of the whole
session's text against the joined references (as the peer's row is scored), `lower_starts` words committed lower-case
after end punctuation, `no_final` 1 when the session's text does not end with . ? !,
`word_end_err_ms` mean |committed word end - faster-whisper's end of the matched word|,
`decode_ms` mean time per decode; `held_%`, `last_%`, `last_p50_s`: where the latency goes, by
the commit rule's holds (agreement, attention margin, unsure word, contradicted by the decode
before, the first second; dictation_metrics.hold_shares). `--word-times`
times committed words from the cross-attention (as `dictate --json` does) instead of
interpolating them from character positions. `--commands` listens for spoken commands as the
app does (the decoder scores short utterances) and counts the commands the gate takes
(`commands`, `commands_per_1k` words): the sets hold none, so each is a false trigger.
`--peer` adds ufal's whisper_streaming (LocalAgreement-2, faster-whisper int8 on the same
tiny.en folder, 2 threads, min chunk 1.0 s; with `--fast` computation-unaware) on every speech
session (`pauses`, `continuous`, `speech2`, `robustness`); its WER is of the whole session's
text, so it compares with Earshot's `wer_joined`. Beside speech2 it takes long: its buffer grows
through the sonnets and is decoded again at beam 5 every second (about an hour on 2 cores).
`--minutes 30` loops the pauses session (soak test). `--busy N` runs N busy-loop processes beside the
sessions (started after the model is loaded, as when another program starts during dictation).
"""

from __future__ import annotations

import argparse
import enum
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import dictation_sets as sets  # noqa: E402  (bench/ is on sys.path)
from compare import busy_programs, model_folder  # noqa: E402
from dictation_metrics import (  # noqa: E402
    assign,
    commands_taken,
    dropped,
    formatting_added,
    hold_shares,
    pct,
    raw_wer,
    run_live,
    sentence_shape_errors,
    split_by_reference,
    wer,
    word_end_error_ms,
    word_latencies,
)
from dictation_reference import peer_row, reference_words  # noqa: E402

from app.audio.vad import VadOptions  # noqa: E402
from app.dictation.command_match import CommandOptions  # noqa: E402
from app.dictation.live_worker import DictationOptions  # noqa: E402
from app.dictation.policy import PolicyOptions, streaming_decode_options  # noqa: E402
from app.engine.models.loader import load_engine  # noqa: E402
from app.engine.transcribe.whisper_engine import WhisperEngine  # noqa: E402
from app.engine.types import DecodeOptions, Precision  # noqa: E402
from app.engine.wer import normalize  # noqa: E402


def offline_texts(engine: WhisperEngine, utterances: list[sets.Utterance]) -> list[str]:
    """Each clip whole, greedy like live, with the files' temperature fallback: at temperature 0
    alone base loops on speech's laughter clip ("ha ha ha ..." 300 times, an offline WER of 130 %),
    which no file transcription writes. tiny.en's texts are the same either way on every set."""
    options = replace(streaming_decode_options("en"), temperatures=DecodeOptions().temperatures)
    out = []
    for u in utterances:
        segments, _ = engine.transcribe(u.audio, options)
        out.append("".join(s.text for s in segments).strip())
    return out


def session_row(engine: WhisperEngine, label: str, played: list[sets.Utterance], scored: slice, pause_s: float,
                args: argparse.Namespace, latency: bool) -> dict[str, object]:
    """Replay `played` joined by `pause_s`; score the utterances `scored` (the rest is the lead)."""
    audio, spans = sets.join(played, pause_s)
    policy = PolicyOptions(decode=streaming_decode_options("en", word_times=args.word_times), **args.policy)
    commands = CommandOptions() if args.commands else None
    run = run_live(engine, audio, DictationOptions(policy=policy, vad=VadOptions(**args.vad), realtime=not args.fast,
                                                   commands=commands))
    live = split_by_reference(run, [u.reference for u in played], spans, pause_s)[scored]
    offline = offline_texts(engine, played[scored])
    refs = [u.reference for u in played[scored]]
    ref_words = reference_words(audio, args.model_dir) if latency else []
    lat, matched = word_latencies(run, ref_words) if latency else ([], 0)
    live_j, off_j = " ".join(t.strip() for t in live), " ".join(offline)
    return {
        "set": label, "engine": args.engine_label,
        "word_p50_s": pct(lat, 50), "word_p95_s": pct(lat, 95), "matched": matched,
        "word_end_err_ms": word_end_error_ms(run, ref_words) if latency else "-",
        "decode_ms": round(1000 * run.summary.compute_ratio * run.summary.audio_s / max(1, run.summary.decodes)),
        "eou_p50_s": pct(run.final_latency_s, 50), "eou_p95_s": pct(run.final_latency_s, 95),
        "first_tent_ms": "-" if args.fast else f"{run.summary.first_tentative_ms_p50 or 0:.0f}",
        "compute": round(run.summary.compute_ratio, 2), "overflows": run.summary.overflows,
        "wer_live": wer(refs, live), "wer_offline": wer(refs, offline),
        "wer_joined": wer([" ".join(refs)], [live_j]),
        "cased": round(raw_wer([off_j], [live_j]) - raw_wer([normalize(off_j)], [normalize(live_j)]), 1),
        "cased_added": round(formatting_added(off_j, live_j), 1),
        "dropped": dropped(offline, live),
        **(hold_shares(run, ref_words) if latency else {}),
        **sentence_shape_errors(run.text),
        **(commands_taken(run.events, len(normalize(run.text).split())) if args.commands else {}),
        "_live": live_j, "_offline": off_j,
    }


def non_speech_rows(engine: WhisperEngine, args: argparse.Namespace) -> list[dict[str, object]]:
    """The non-speech clips each alone, then all after the session lead: `committed` = words
    committed for them (in the session: words timed inside a non-speech clip's span)."""
    clips, lead = sets.non_speech(), sets.session_lead()
    options = DictationOptions(policy=PolicyOptions(decode=streaming_decode_options("en")),
                               vad=VadOptions(**args.vad), realtime=not args.fast)
    alone = {u.name: run_live(engine, u.audio, options).text.strip() for u in clips}
    audio, spans = sets.join(lead + clips, 1.5)
    words = assign(run_live(engine, audio, options), spans, 1.5)[len(lead):]
    in_session = {u.name: t.strip() for u, t in zip(clips, words, strict=True) if t.strip()}
    rows: list[dict[str, object]] = []
    for label, found in (("non-speech alone", {k: v for k, v in alone.items() if v}),
                         ("non-speech in session", in_session)):
        rows.append({"set": label, "engine": args.engine_label, "clips": len(clips),
                     "committed": sum(len(t.split()) for t in found.values()), "_live": found})
    return rows


def rows_for(engine: WhisperEngine, args: argparse.Namespace) -> list[dict[str, object]]:
    rows = []
    clean = sets.english_clean()
    if "pauses" in args.sets:
        played = clean * max(1, int(args.minutes * 60 / 100))
        rows.append(session_row(engine, "pauses 1.5 s", played, slice(None), 1.5, args, True))
        _progress(rows[-1], args)
        if args.peer:
            rows.append(peer_row("pauses", clean, 1.5, args))
            _progress(rows[-1], args)
    if "continuous" in args.sets:
        rows.append(session_row(engine, "continuous 0.35 s", clean, slice(None), 0.35, args, True))
        _progress(rows[-1], args)
        if args.peer:
            rows.append(peer_row("continuous", clean, 0.35, args))
            _progress(rows[-1], args)
    loaders: tuple[tuple[str, Callable[[], list[sets.Utterance]]], ...] = (
        ("speech2", sets.english_speech2), ("robustness", sets.robustness_session))
    for name, load in loaders:
        if name not in args.sets:
            continue
        utterances = load()
        for kind, pause_s in (("pauses", 1.5), ("continuous", 0.35)):
            if kind in args.gaps:
                rows.append(session_row(engine, f"{name} {kind} {pause_s:g} s", utterances, slice(None),
                                        pause_s, args, True))
                _progress(rows[-1], args)
                if args.peer:
                    rows.append(peer_row(f"{name} {kind}", utterances, pause_s, args))
                    _progress(rows[-1], args)
    if "nonspeech" in args.sets:
        for row in non_speech_rows(engine, args):
            rows.append(row)
            _progress(row, args)
    if "classes" in args.sets:
        lead = sets.session_lead()
        for name, utterances in sets.condition_classes().items():
            if args.only and name not in args.only:
                continue
            if "alone" in args.where:
                rows.append(session_row(engine, f"{name} alone", utterances, slice(None), 1.5, args, False))
                _progress(rows[-1], args)
            if "session" in args.where:
                rows.append(session_row(engine, f"{name} in session", lead + utterances,
                                        slice(len(lead), None), 1.5, args, False))
                _progress(rows[-1], args)
    return rows


def _progress(row: dict[str, object], args: argparse.Namespace) -> None:
    """Long runs: each row as soon as it is measured (stderr)."""
    texts = f"\n  live:    {row['_live']}\n  offline: {row.get('_offline', '')}" if args.texts else ""
    commands = row.get("_commands", [])
    assert isinstance(commands, list)
    texts += "".join(f"\n  command: {c}" for c in commands)
    print({k: v for k, v in row.items() if not k.startswith("_")}, texts, file=sys.stderr, flush=True)


def _option_value(default: object, text: str) -> object:
    """A command-line FIELD=VALUE value in the type of the field's default (bools: true/false)."""
    if isinstance(default, bool):
        return text.lower() in ("1", "true", "yes", "on")
    if isinstance(default, (int, float, str, enum.Enum)):
        return type(default)(text)
    raise SystemExit(f"a {type(default).__name__} option cannot be set from the command line")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", nargs="+", default=["tiny.en"])
    parser.add_argument("--precision", default="auto", choices=[p.value for p in Precision])
    parser.add_argument("--sets", nargs="+", default=["pauses", "continuous", "classes"])
    parser.add_argument("--gaps", nargs="+", default=["pauses", "continuous"],
                        help="speech2 and robustness: with 1.5 s pauses, continuous (0.35 s), or both")
    parser.add_argument("--only", nargs="*", help="condition classes to run (default: all)")
    parser.add_argument("--where", nargs="+", default=["alone", "session"], help="classes alone, in a session")
    parser.add_argument("--minutes", type=float, default=0.0, help="loop the pauses session to about this length")
    parser.add_argument("--fast", action="store_true", help="replay as fast as possible (stream-time latencies)")
    parser.add_argument("--peer", action="store_true", help="also run whisper_streaming on every speech session")
    parser.add_argument("--texts", action="store_true", help="print live and offline texts")
    parser.add_argument("--commands", action="store_true",
                        help="listen for spoken commands as the app does; count those taken (false triggers)")
    parser.add_argument("--word-times", action="store_true",
                        help="time committed words from the cross-attention (as `dictate --json` does)")
    parser.add_argument("--policy", nargs="*", default=[], metavar="FIELD=VALUE",
                        help="PolicyOptions overrides, e.g. agreement=2 commit_margin_s=0.4")
    parser.add_argument("--vad", nargs="*", default=[], metavar="FIELD=VALUE",
                        help="VadOptions overrides, e.g. end_pad_s=0.5")
    parser.add_argument("--busy", type=int, default=0, metavar="N",
                        help="N busy-loop processes beside the sessions (another program wanting N cores), "
                             "started after the model's load")
    args = parser.parse_args()
    args.policy = {k: _option_value(getattr(PolicyOptions, k), v) for k, v in (a.split("=") for a in args.policy)}
    args.vad = {k: type(getattr(VadOptions, k))(v) for k, v in (a.split("=") for a in args.vad)}
    rows = []
    for name in args.models:
        args.model_dir = model_folder(name)
        engine = load_engine(args.model_dir, Precision(args.precision))
        args.engine_label = f"earshot {name} ({engine.precision.value})"
        with busy_programs(args.busy):
            rows += rows_for(engine, args)
    load = Path("/proc/loadavg").read_text().split()[0]
    beside = f", {args.busy} busy program(s) beside" if args.busy else ""
    print(f"\nlive dictation, {'fast' if args.fast else 'real-time'} replay{beside}, load average {load}\n")
    for kind in ("committed", "wer_live"):  # the non-speech rows have their own columns
        table = [r for r in rows if kind in r or (kind == "wer_live" and "committed" not in r)]
        keys = [k for k in table[0] if not k.startswith("_")] if table else []
        if table:
            print("| " + " | ".join(keys) + " |\n|" + "---|" * len(keys))
        for row in table:
            print("| " + " | ".join(str(row.get(k, "-")) for k in keys) + " |")
    if args.texts:
        for row in rows:
            print(f"\n[{row['set']} / {row['engine']}]\n live:    {row['_live']}\n offline: {row.get('_offline', '')}")


if __name__ == "__main__":
    main()

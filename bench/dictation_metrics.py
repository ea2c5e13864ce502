"""One live session through the real worker, and the figures the dictation benchmark reports.

`run_live` replays session audio through `DictationWorker` (the microphone's code path) and
records, for every committed word, when it was emitted: the stream position (16 kHz samples the
VAD had classified; in fast replay this is the policy's own latency, without compute) and the
wall-clock time (real-time replay). `score` turns that into per-word latency against reference
word end times, WER against offline, and dropped utterances.
"""

from __future__ import annotations

import difflib
import itertools
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from app.audio.replay import ReplayOptions, ReplaySource
from app.dictation.commit_rule import Hold, HoldLog
from app.dictation.decoder_port import WindowDecoder
from app.dictation.events import DictationEvent, EventType, SessionSummary
from app.dictation.live_worker import DictationOptions, DictationWorker
from app.dictation.postprocess import PostProcessOptions, TextPostProcessor
from app.dictation.text import capitalise, split_trailing_mark
from app.dictation.voice_edits import CommandGate
from app.engine.wer import normalize, word_error_rate

RATE = 16000


@dataclass
class LiveRun:
    """`emitted[i]`: (stream position s, capture-clock time of the emission s) when committed
    word i reached the user; `capture_time(s)` maps session seconds to that clock."""

    words: list[tuple[str, float, float]]  # (text, start s, end s) as the policy estimated
    emitted: list[tuple[float, float]]
    final_latency_s: list[float]  # end of an utterance's speech -> its FINAL event
    summary: SessionSummary
    realtime: bool
    capture_time: Callable[[float], float]
    events: list[DictationEvent] = field(default_factory=list)
    holds: HoldLog = field(default_factory=HoldLog)

    @property
    def text(self) -> str:
        return "".join(w for w, _, _ in self.words)


def run_live(engine: WindowDecoder, audio: np.ndarray, options: DictationOptions) -> LiveRun:
    """Replay `audio` (float32 16 kHz) through the live path; see `LiveRun`."""
    source = ReplaySource(audio, RATE, ReplayOptions(realtime=options.realtime))
    marks: list[tuple[int, float, float]] = []  # (words committed so far, stream s, wall s)
    finals: list[float] = []
    events: list[DictationEvent] = []
    done = threading.Event()
    holder: dict[str, DictationWorker] = {}

    def sink(event: DictationEvent) -> None:  # runs on the worker thread, at emission
        events.append(event)
        if event.type is EventType.SUMMARY:
            done.set()
            return
        worker = holder["w"]
        pos = worker.vad.processed / RATE
        if event.type in (EventType.COMMIT, EventType.FINAL):
            marks.append((len(worker.policy.committed), pos, time.monotonic()))
        if event.type is EventType.FINAL and event.text:
            assert event.latency_ms is not None  # the worker times every commit it emits
            real = event.latency_ms / 1000
            finals.append(real if options.realtime else pos - event.audio_end_s)

    worker = DictationWorker(source, engine, sink, options)
    holder["w"] = worker
    worker.start()
    worker.join()
    done.wait(5)
    words = [(w.text, w.start, w.end) for w in worker.policy.committed]
    emitted: list[tuple[float, float]] = []
    mark = 0
    for i in range(len(words)):
        while marks[mark][0] < i + 1:
            mark += 1
        emitted.append((marks[mark][1], marks[mark][2]))
    assert worker.summary is not None
    timeline = worker.timeline
    return LiveRun(words, emitted, finals, worker.summary, options.realtime,
                   lambda s: timeline.capture_time(s * RATE), events, worker.policy.hold_log)


# a committed word whose estimated end is further than this from the reference word it matches
# is the same text said elsewhere (the robustness session plays the same sentences under each
# condition): difflib can pair it with another instance
MATCH_WITHIN_S = 5.0


def matched_words(run: LiveRun, ref_words: list[tuple[str, float]]) -> list[tuple[int, float]]:
    """(index of a committed word, end s of the reference word it matches): difflib on the
    normalised text, without the pairs more than `MATCH_WITHIN_S` apart. Where difflib paired
    words with another reading of their sentence, the stretch is split in time and each half
    matched again, so the words' own reading is found (`_time_matched`)."""
    hyp = [normalize(w) for w, _, _ in run.words]
    ref = [normalize(w) for w, _ in ref_words]
    hyp_ends = [end for _, _, end in run.words]
    ref_ends = [end for _, end in ref_words]
    pairs = _time_matched(ref, hyp, ref_ends, hyp_ends, (0, len(ref)), (0, len(hyp)))
    return [(j, ref_ends[i]) for i, j in pairs]


def _time_matched(
    ref: list[str], hyp: list[str], ref_ends: list[float], hyp_ends: list[float],
    ref_span: tuple[int, int], hyp_span: tuple[int, int],
) -> list[tuple[int, int]]:
    """(reference index, committed index) pairs within the two index spans, each pair's ends
    (s) at most `MATCH_WITHIN_S` apart. Where difflib paired some words further apart and the
    stretch is longer than twice that, its two halves in time are matched apart instead."""
    (a0, a1), (b0, b1) = ref_span, hyp_span
    matcher = difflib.SequenceMatcher(None, ref[a0:a1], hyp[b0:b1], autojunk=False)
    pairs = [(a0 + blk.a + k, b0 + blk.b + k) for blk in matcher.get_matching_blocks() for k in range(blk.size)]
    kept = [(i, j) for i, j in pairs if abs(hyp_ends[j] - ref_ends[i]) <= MATCH_WITHIN_S]
    if len(kept) == len(pairs) or a1 - a0 < 2:
        return kept
    start, stop = ref_ends[a0], ref_ends[a1 - 1]
    if stop - start <= 2 * MATCH_WITHIN_S:
        return kept
    middle = (start + stop) / 2
    ref_cut = next(i for i in range(a0, a1) if ref_ends[i] > middle)
    hyp_cut = next((j for j in range(b0, b1) if hyp_ends[j] > middle), b1)
    return [*_time_matched(ref, hyp, ref_ends, hyp_ends, (a0, ref_cut), (b0, hyp_cut)),
            *_time_matched(ref, hyp, ref_ends, hyp_ends, (ref_cut, a1), (hyp_cut, b1))]


def word_latencies(run: LiveRun, ref_words: list[tuple[str, float]]) -> tuple[list[float], int]:
    """Per-word latency (s) of committed words matched (`matched_words`) to reference words with
    end times (s): in real time the emission time minus the word's capture time, in fast replay
    the stream position at emission minus the word end. Also the match count."""
    out = [_latency(run, i, ref_end) for i, ref_end in matched_words(run, ref_words)]
    return out, len(out)


def _latency(run: LiveRun, i: int, ref_end: float) -> float:
    pos, wall = run.emitted[i]
    return wall - run.capture_time(ref_end) if run.realtime else pos - ref_end


_HOLD_NAMES = {Hold.AGREEMENT: "agree", Hold.MARGIN: "margin", Hold.UNSURE: "unsure",
               Hold.CONTRADICTED: "contra", Hold.FIRST_SECOND: "first"}


def hold_shares(run: LiveRun, ref_words: list[tuple[str, float]]) -> dict[str, str]:
    """Where the latency goes, per commit-rule hold (commit_rule.Hold): `held_%` the share of
    committed words that each rule held in at least one decode; `last_%` the share whose last
    hold before their commit was that rule (`none`: committed by the first decode that wrote
    them: an utterance's end); `last_p50_s` the median latency of the matched words of each
    `last` group (as `word_latencies`)."""
    n = max(1, len(run.words))
    held = {h: sum(h in run.holds.ever.get(k, ()) for k in range(len(run.words))) for h in Hold}
    groups: dict[str, list[float]] = {name: [] for name in [*_HOLD_NAMES.values(), "none"]}
    last = [_HOLD_NAMES[run.holds.last[k]] if k in run.holds.last else "none" for k in range(len(run.words))]
    for i, ref_end in matched_words(run, ref_words):
        groups[last[i]].append(_latency(run, i, ref_end))
    return {
        "held_%": " ".join(f"{_HOLD_NAMES[h]} {100 * c / n:.0f}" for h, c in held.items()),
        "last_%": " ".join(f"{g} {100 * last.count(g) / n:.0f}" for g in groups),
        "last_p50_s": " ".join(f"{g} {pct(v, 50)}" for g, v in groups.items() if v),
    }


def word_end_error_ms(run: LiveRun, ref_words: list[tuple[str, float]]) -> float | None:
    """Mean |end time of a committed word - end of the reference word it matches| (ms)."""
    errors = [abs(run.words[i][2] - end) for i, end in matched_words(run, ref_words)]
    return round(1000 * float(np.mean(errors))) if errors else None


def assign(run: LiveRun, spans: list[tuple[float, float]], pause_s: float) -> list[str]:
    """The committed text of each utterance: words whose estimated middle lies in its span
    (from 0.3 s before its start to the next utterance's start)."""
    texts = ["" for _ in spans]
    last = 0
    for text, start, end in run.words:
        mark = re.match(r"[.,?!;:]+(?=\s)", text)
        if mark:  # a mark held after the previous word, committed with this one: it is that word's
            texts[last] += mark.group()
            text = text[mark.end():]
        mid = (start + end) / 2
        for i, (s, e) in enumerate(spans):
            nxt = spans[i + 1][0] - 0.3 if i + 1 < len(spans) else e + pause_s + 60
            if s - 0.3 <= mid < nxt:
                texts[i] += text
                last = i
                break
    return texts


def split_by_reference(run: LiveRun, references: list[str], spans: list[tuple[float, float]],
                       pause_s: float) -> list[str]:
    """The committed text of each utterance, split where the minimal-edit alignment of all
    committed words (normalised) to the joined `references` crosses from one reference to the
    next. Word times are estimates (a joined window can place the next sentence's first words in
    the pause before it), so splitting by time can count a word correctly written as an error in
    two utterances; this split never does: the sum of the pieces' edits is the edit distance of
    the joined texts. Very long sessions (the soak loop) fall back to `assign` by time."""
    tokens: list[str] = []
    owner: list[int] = []  # committed word index of each normalised token
    for i, (text, _, _) in enumerate(run.words):
        for tok in normalize(text).split():
            tokens.append(tok)
            owner.append(i)
    ref_tokens = [normalize(r).split() for r in references]
    flat = [t for r in ref_tokens for t in r]
    if len(flat) * len(tokens) > 4_000_000:
        return assign(run, spans, pause_s)
    cuts = _crossings(flat, tokens, list(itertools.accumulate(len(r) for r in ref_tokens))[:-1])
    bounds = [0, *[owner[j] if j < len(owner) else len(run.words) for j in cuts], len(run.words)]
    pieces = ["".join(w for w, _, _ in run.words[a:b]) for a, b in itertools.pairwise(bounds)]
    last = -1  # a mark held after the last word of the latest piece with words, committed with the next
    for i, piece in enumerate(pieces):
        mark = re.match(r"[.,?!;:]+(?=\s)", piece)
        if mark and last >= 0:
            pieces[last] += mark.group()
            pieces[i] = piece[mark.end():]
        last = i if pieces[i].strip() else last
    return pieces


def _crossings(ref: list[str], hyp: list[str], boundaries: list[int]) -> list[int]:
    """For each reference index in `boundaries`, the first hypothesis index at which a minimal
    edit path (Levenshtein, `ref` rows, `hyp` columns) reaches that row."""
    cost = [list(range(len(hyp) + 1))]
    for i, r in enumerate(ref, 1):
        prev, row = cost[-1], [i]
        for j, h in enumerate(hyp, 1):
            row.append(min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (r != h)))
        cost.append(row)
    first_in_row = [0] * (len(ref) + 1)
    i, j = len(ref), len(hyp)
    while i or j:
        first_in_row[i] = j
        if i and j and cost[i][j] == cost[i - 1][j - 1] + (ref[i - 1] != hyp[j - 1]):
            i, j = i - 1, j - 1
        elif i and cost[i][j] == cost[i - 1][j] + 1:
            i -= 1
        else:
            j -= 1
    first_in_row[0] = 0
    return [first_in_row[b] for b in boundaries]


def raw_wer(references: list[str], hypotheses: list[str]) -> float:
    """WER (%) with case and punctuation kept, words split on spaces."""
    edits = total = 0
    for ref, hyp in zip(references, hypotheses, strict=True):
        r, h = ref.split(), hyp.split()
        total += len(r)
        edits += _edits(r, h)
    return 100.0 * edits / max(1, total)


def formatting_added(offline: str, live: str) -> float:
    """Points (per 100 offline words) of the case-and-punctuation errors where the live word only
    adds a mark or a capital to an offline word that has neither ("corpus" -> "corpus.", "this"
    -> "This"): offline text that Whisper wrote as one unpunctuated lower-case run (the
    acoustic-corpus clip) counts the live text's sentences as errors. The rest of `cased` is
    formatting the live text lost or wrote differently ("Printing," -> "Printing", "One," -> "1,")."""
    o, h = offline.split(), live.split()
    added = 0
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=o, b=h, autojunk=False).get_opcodes():
        if tag == "replace" and i2 - i1 == j2 - j1:
            added += sum(_adds_format(a, b) for a, b in zip(o[i1:i2], h[j1:j2], strict=True))
    return 100.0 * added / max(1, len(o))


def _adds_format(offline_word: str, live_word: str) -> bool:
    """`live_word` is `offline_word`, which has no mark and no capital, with one added."""
    core, mark = split_trailing_mark(live_word)
    bare = not split_trailing_mark(offline_word)[1] and not offline_word[:1].isupper()
    return bare and live_word != offline_word and len(mark) <= 1 and core in (offline_word, capitalise(offline_word))


def _edits(r: list[str], h: list[str]) -> int:
    row = list(range(len(h) + 1))
    for i, rw in enumerate(r, 1):
        prev, row[0] = row[0], i
        for j, hw in enumerate(h, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (rw != hw))
    return row[-1]


def pct(values: list[float], q: float) -> str:
    return f"{np.percentile(values, q):.2f}" if values else "-"


def wer(refs: list[str], hyps: list[str]) -> float:
    return round(word_error_rate(refs, hyps), 1)


def dropped(offline: list[str], live: list[str]) -> int:
    """Utterances offline transcribes (some word) of which live committed no word."""
    return sum(1 for o, h in zip(offline, live, strict=True) if normalize(o).split() and not normalize(h).split())


def sentence_shape_errors(text: str) -> dict[str, int]:
    """Counts in committed `text`: `lower_starts` words starting lower-case after end punctuation
    ("Americans. ask"), `no_final` 1 when the text does not end with . ? !."""
    words = text.split()
    lower = sum(1 for a, b in itertools.pairwise(words)
                if a.endswith((".", "?", "!")) and not a.endswith("..") and b[:1].islower())
    return {"lower_starts": lower, "no_final": int(bool(words) and not text.rstrip().endswith((".", "?", "!")))}


def commands_taken(events: list[DictationEvent], n_words: int) -> dict[str, object]:
    """The commands the app's gate takes in a session of dictated words (false triggers: the
    sets hold no commands), per 1,000 committed words, and what was heard for each."""
    gate = CommandGate(TextPostProcessor(PostProcessOptions()))
    for event in events:
        gate.process(event)
    heard = [f"{text.strip()!r} as {found.phrase.words!r}" for text, found in gate.applied]
    return {"commands": len(heard), "commands_per_1k": round(1000 * len(heard) / max(1, n_words), 1),
            "_commands": heard}

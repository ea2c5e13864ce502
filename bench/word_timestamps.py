"""Word-timestamp accuracy against forced alignments, beside faster-whisper, and the cost of words.

Accuracy: the shared recordings that have Montreal-Forced-Aligner TextGrids (tier "words"),
transcribed by Earshot (`word_timestamps=True`) and by faster-whisper (`word_timestamps=True`) on
the same CTranslate2 tiny.en weights; recognised and aligned words are matched on normalised text
(difflib) and the mean |start error| and |end error| over the matched words are printed.
Cost: Earshot's wall time over the English clips of ../shared/data/speech with words off and on,
rounds alternated, medians.

    python bench/word_timestamps.py [--precisions int8 fp32] [--rounds 3] [--threads 2]
"""

from __future__ import annotations

import argparse
import difflib
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

if TYPE_CHECKING:
    from app.engine.timing.window_words import WindowWords

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared" / "data"
ALIGNED = [(SHARED / "speech" / "en_mfa_acoustic_corpus.wav",
            SHARED / "speech/alignments/en_mfa_acoustic_corpus.TextGrid"),
           (SHARED / "robustness" / "en_mfa_cold_corpus3.wav",
            SHARED / "robustness/alignments/en_mfa_cold_corpus3.TextGrid")]
FW_TYPES = {"int8": "int8", "fp32": "float32"}
WordSpan = tuple[str, float, float]
"""A recognised word and its start and end (s)."""


class EarshotWords(Protocol):
    """Transcribes float32 16 kHz audio with word times on (or off: then no words)."""

    def __call__(self, audio: np.ndarray, words: bool = True) -> list[WordSpan]: ...


def read_textgrid_words(path: Path) -> list[WordSpan]:
    """(word, start s, end s) of the "words" tier's non-empty intervals (long TextGrid format)."""
    lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
    start = lines.index('"words"')
    count = int(lines[start + 3])
    words = []
    for k in range(count):
        lo, hi, text = lines[start + 4 + 3 * k : start + 7 + 3 * k]
        if text.strip('"'):
            words.append((text.strip('"'), float(lo), float(hi)))
    return words


def normalise(word: str) -> str:
    return re.sub(r"[^a-z0-9']", "", word.lower())


def errors(hyp: list[WordSpan], ref: list[WordSpan]) -> tuple[float, float, int]:
    """Mean |start error|, mean |end error| (s) over the words difflib matches, and their count."""
    a, b = [normalise(w) for w, _, _ in hyp], [normalise(w) for w, _, _ in ref]
    starts, ends = [], []
    for block in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
        for k in range(block.size):
            h, r = hyp[block.a + k], ref[block.b + k]
            starts.append(abs(h[1] - r[1]))
            ends.append(abs(h[2] - r[2]))
    return float(np.mean(starts)), float(np.mean(ends)), len(starts)


def earshot_words(precision: str, threads: int) -> EarshotWords:
    from app.engine.models.loader import load_engine
    from app.engine.types import DecodeOptions, Precision

    engine = load_engine(None, Precision(precision), "cpu", threads)

    def run(audio: np.ndarray, words: bool = True) -> list[WordSpan]:
        segments, _ = engine.transcribe(audio, DecodeOptions(word_timestamps=words))
        return [(w.word, w.start, w.end) for s in segments for w in (s.words or [])]

    return run


def faster_whisper_words(precision: str, threads: int) -> Callable[[np.ndarray], list[WordSpan]]:
    from faster_whisper import WhisperModel

    from app.engine.models.store import bundled_model_dir

    fw = WhisperModel(str(bundled_model_dir()), device="cpu", compute_type=FW_TYPES[precision], cpu_threads=threads)

    def run(audio: np.ndarray) -> list[WordSpan]:
        segments, _ = fw.transcribe(audio, beam_size=5, word_timestamps=True, vad_filter=False)
        return [(w.word, w.start, w.end) for s in segments for w in (s.words or [])]

    return run


def accuracy(precisions: list[str], threads: int) -> None:
    from earshot_bench_io import read_wav

    print("| clip | engine | matched words | mean abs start err ms | mean abs end err ms | mean ms | vs fw |")
    print("|---|---|---|---|---|---|---|")
    for precision in precisions:
        ours, theirs = earshot_words(precision, threads), faster_whisper_words(precision, threads)
        for wav, grid in ALIGNED:
            audio, ref = read_wav(wav), read_textgrid_words(grid)
            fw_s, fw_e, fw_n = errors(theirs(audio), ref)
            es_s, es_e, es_n = errors(ours(audio), ref)
            fw_mean, es_mean = (fw_s + fw_e) / 2, (es_s + es_e) / 2
            print(f"| {wav.stem} | faster-whisper {FW_TYPES[precision]} | {fw_n} | {1000 * fw_s:.0f} | "
                  f"{1000 * fw_e:.0f} | {1000 * fw_mean:.0f} | 1.00 |")
            print(f"| {wav.stem} | earshot {precision} | {es_n} | {1000 * es_s:.0f} | {1000 * es_e:.0f} | "
                  f"{1000 * es_mean:.0f} | {es_mean / fw_mean:.2f} |")


def cost(rounds: int, threads: int) -> None:
    from earshot_bench_io import read_wav

    clips = [read_wav(p) for p in sorted((SHARED / "speech").glob("en_*.wav")) if ".orig" not in p.name]
    run = earshot_words("auto", threads)
    for audio in clips[:2]:
        run(audio, True)  # warm both sessions
    for clock_name, clock in (("wall", time.perf_counter), ("CPU", time.process_time)):
        times: dict[bool, list[float]] = {False: [], True: []}
        for _ in range(rounds):
            for words in (False, True):
                t0 = clock()
                for audio in clips:
                    run(audio, words)
                times[words].append(clock() - t0)
        off, on = statistics.median(times[False]), statistics.median(times[True])
        paired = statistics.median(b / a for a, b in zip(times[False], times[True], strict=True))
        print(f"\n{clock_name} time, {len(clips)} English clips, auto, beam 5, {threads} thread(s): words off "
              f"{off:.2f} s, on {on:.2f} s ({100 * (on / off - 1):+.1f} %, paired {100 * (paired - 1):+.1f} %), "
              f"{rounds} rounds")


def step_cost(threads: int, steps: int = 200) -> None:
    """Per-step decoder time of the plain session and of the word-timing one (extra output), and
    the per-window cost of words: the teacher-forced pass and the numpy alignment."""
    from earshot_bench_io import read_wav

    from app.engine.decoding.window_decoder import mel_window
    from app.engine.models.loader import load_engine
    from app.engine.runtime.features import log_mel
    from app.engine.timing.word_alignment import attention_matrix, token_start_times
    from app.engine.types import Precision

    engine = load_engine(None, Precision.AUTO, "cpu", threads)
    runtime = engine.runtime
    mel = log_mel(read_wav(SHARED / "speech" / "en_jfk_inaugural.wav"), runtime.facts.dims.n_mels)
    cross = runtime.encode(mel_window(mel, 0, min(3000, mel.shape[-1])))
    prompt = np.array([[runtime.tokenizer.sot, runtime.tokenizer.no_timestamps]], dtype=np.int64)
    token = np.array([[262]], dtype=np.int64)
    results: dict[str, list[float]] = {"plain": [], "word-timing": []}
    for _ in range(3):
        for name in results:
            step = runtime.decode if name == "plain" else runtime.decode_with_alignment
            cache = step(prompt, runtime.new_cache(1), cross)[1]
            t0 = time.perf_counter()
            for _ in range(steps):
                cache = step(token, cache, cross)[1]
            results[name].append(1000 * (time.perf_counter() - t0) / steps)
    sequence = np.array([[runtime.tokenizer.sot, runtime.tokenizer.no_timestamps, *range(300, 400),
                          runtime.tokenizer.eot]], dtype=np.int64)
    t0 = time.perf_counter()
    weights = runtime.decode_with_alignment(sequence, runtime.new_cache(1), cross)[2]
    forced_ms = 1000 * (time.perf_counter() - t0)
    t0 = time.perf_counter()
    token_start_times(attention_matrix(weights[0], 3000)[1:-1])
    align_ms = 1000 * (time.perf_counter() - t0)
    print(f"\ndecoder step, auto, 1 row: plain {min(results['plain']):.2f} ms, with the alignment output "
          f"{min(results['word-timing']):.2f} ms (best of 3 x {steps}); per window of 100 text tokens: "
          f"teacher-forced pass {forced_ms:.1f} ms, alignment (z-score, median, DTW) {align_ms:.1f} ms")


def attributed_cost(rounds: int) -> None:
    """CPU time spent inside word timing (`WindowWords.add`) against the rest, one thread: on a
    loaded shared machine the totals of two runs differ by more than the cost itself."""
    from earshot_bench_io import read_wav

    import app.engine.timing.window_words as window_words

    clips = [read_wav(p) for p in sorted((SHARED / "speech").glob("en_*.wav")) if ".orig" not in p.name]
    spent = [0.0]
    original = window_words.WindowWords.add

    def timed(self: WindowWords, *args: Any, **kwargs: Any) -> None:
        t0 = time.process_time()
        original(self, *args, **kwargs)
        spent[0] += time.process_time() - t0

    window_words.WindowWords.add = timed  # type: ignore[method-assign]  # instrumented on purpose, for this run
    run = earshot_words("auto", 1)
    run(clips[0], True)
    for number in range(rounds):
        spent[0] = 0.0
        t0 = time.process_time()
        for audio in clips:
            run(audio, True)
        total = time.process_time() - t0
        print(f"round {number + 1}: CPU {total:.2f} s, of which word timing {spent[0]:.2f} s: "
              f"{100 * spent[0] / (total - spent[0]):+.1f} % over words off")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--precisions", nargs="+", default=["int8", "fp32"], choices=list(FW_TYPES))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--skip-cost", action="store_true")
    parser.add_argument("--skip-accuracy", action="store_true")
    args = parser.parse_args()
    if not args.skip_accuracy:
        accuracy(args.precisions, args.threads)
    if not args.skip_cost:
        step_cost(args.threads)
        cost(args.rounds, args.threads)
        attributed_cost(args.rounds)


if __name__ == "__main__":
    main()
